import CartInterface
import OrderInterface
public import ProductInterface
public import Router
import ScreenKit
import Synchronization

/// The "customers also bought" plugin of the product page: the products most often ordered together
/// with the one shown, counted from every stored order through ``OrderHistory``. Settings: `limit`
/// (how many products to list, 3).
public enum RecommendationsPlugin: PluginDefinition {
    public typealias Point = ProductSections
    public static let id = "recommendations"
    public static let settings: PluginSchema = ["limit": .int]

    public static func make(_ context: PluginContext) throws -> any ProductSectionPlugin {
        RecommendationsSection(services: context.services, limit: context.settings.int("limit", default: 3))
    }
}

/// One page's recommendations: computed once and kept until the page hears that something changed (a
/// review on this page, the cart, an order placed anywhere).
final class RecommendationsSection: ProductSectionPlugin {
    private let services: ServiceRegistry
    private let limit: Int
    /// The section as last computed (nil inside: nothing to recommend), until the page hears a change.
    private let cached = Mutex<ProductSection??>(nil)
    private let counter = Mutex(0)

    init(services: ServiceRegistry, limit: Int) {
        self.services = services
        self.limit = max(1, limit)
    }

    /// How many times the recommendations were computed: once per change the page heard, not per render.
    var computations: Int { counter.withLock { $0 } }

    func attach(_ context: PluginContext) throws {
        context.events.subscribe(self, to: ReviewAdded.self) { section, _ in section.invalidate() }
        context.events.subscribe(self, to: CartChanged.self) { section, _ in section.invalidate() }
        context.appEvents.subscribe(self, to: OrderPlaced.self) { section, _ in section.invalidate() }
    }

    private func invalidate() { cached.withLock { $0 = nil } }

    func section(for product: ProductSummary) async throws -> ProductSection? {
        // Without an order history (an app without orders) there is nothing to recommend from.
        guard services.isRegistered((any OrderHistory).self) else { return nil }
        if let known = cached.withLock({ $0 }) { return known }
        let products = try await compute(for: product.id)
        let section =
            products.isEmpty
            ? nil
            : ProductSection(
                heading: "Customers also bought",
                elements: try products.map { .link(Link(title: "\($0.name) — \($0.price)", url: try ProductRoute.Detail(id: $0.id).url())) })
        cached.withLock { $0 = .some(section) }
        return section
    }

    private func compute(for productID: Int) async throws -> [ProductSummary] {
        counter.withLock { $0 += 1 }
        let history = try services.resolve((any OrderHistory).self)
        let catalog = try services.resolve((any ProductCatalog).self)
        var units: [Int: Int] = [:]
        for order in try await history.orders(containing: productID) {
            for line in order.lines where line.productID != productID { units[line.productID, default: 0] += line.quantity }
        }
        let ranked = units.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.prefix(limit)
        var products: [ProductSummary] = []
        for (id, _) in ranked {
            if let product = try await catalog.product(id: id) { products.append(product) }
        }
        return products
    }
}
