import CartInterface
import Models
public import ProductInterface
public import Router
import ScreenKit
import Synchronization

/// The shipping-estimate plugin of the product page: when the product arrives, and how far the cart is
/// from free shipping. Settings: `days` (int, 3), `carrier` (string, "Parcel Post"), `free-over`
/// (number, in the currency's units, 50).
public enum ShippingEstimatePlugin: PluginDefinition {
    public typealias Point = ProductSections
    public static let id = "shipping-estimate"
    public static let settings: PluginSchema = ["days": .int, "carrier": .string, "free-over": .number]

    public static func make(_ context: PluginContext) throws -> any ProductSectionPlugin {
        let settings = context.settings
        return ShippingSection(
            services: context.services, days: max(0, settings.int("days", default: 3)), carrier: settings.string("carrier", default: "Parcel Post"),
            freeOverCents: Int((settings.number("free-over", default: 50) * 100).rounded()))
    }
}

/// One page's shipping section; it keeps the cart's total until the page hears the cart changed.
final class ShippingSection: ProductSectionPlugin {
    private let services: ServiceRegistry
    private let days: Int
    private let carrier: String
    private let freeOverCents: Int
    private let cartTotal = Mutex<Money?>(nil)

    init(services: ServiceRegistry, days: Int, carrier: String, freeOverCents: Int) {
        self.services = services
        self.days = days
        self.carrier = carrier
        self.freeOverCents = freeOverCents
    }

    func attach(_ context: PluginContext) throws {
        context.events.subscribe(self, to: CartChanged.self) { section, _ in section.cartTotal.withLock { $0 = nil } }
    }

    func section(for product: ProductSummary) async throws -> ProductSection? {
        var section = ProductSection(heading: "Shipping")
        section.elements.append(.text(days == 0 ? "Delivered today by \(carrier)." : "Delivered in \(days) day\(days == 1 ? "" : "s") by \(carrier)."))
        let threshold = Money(cents: freeOverCents, currency: product.price.currency)
        guard freeOverCents > 0, let total = try await total(in: product.price.currency) else {
            section.elements.append(.text(freeOverCents > 0 ? "Free shipping on orders over \(threshold)." : "Shipping is free."))
            return section
        }
        if total.cents >= freeOverCents {
            section.elements.append(.text("Your cart (\(total)) ships free."))
        } else if total.cents == 0, product.price.cents >= freeOverCents {
            section.elements.append(.text("This ships free (orders over \(threshold))."))
        } else if total.cents + product.price.cents >= freeOverCents {
            section.elements.append(.text("Add this to your cart (\(total)) and it ships free."))
        } else {
            let missing = Money(cents: freeOverCents - total.cents, currency: total.currency)
            section.elements.append(.text("Free shipping over \(threshold): \(missing) to go."))
        }
        return section
    }

    /// The cart's total in `currency`, or nil without a cart service (an app without a cart).
    private func total(in currency: String) async throws -> Money? {
        if let known = cartTotal.withLock({ $0 }) { return known }
        guard services.isRegistered((any CartService).self) else { return nil }
        let lines = try await services.resolve((any CartService).self).lines()
        let total = try lines.map(\.total).sum(in: currency)
        cartTotal.withLock { $0 = total }
        return total
    }
}
