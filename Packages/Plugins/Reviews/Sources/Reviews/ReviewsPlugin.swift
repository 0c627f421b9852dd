import Foundation
public import ProductInterface
public import Router
import ScreenKit
import Storage
import Synchronization

/// The reviews plugin of the product page: the average rating and the latest reviews, stored in the
/// app's database, and a route to write one. Settings: `shown` (how many reviews the page lists, 3).
public enum ReviewsPlugin: PluginDefinition {
    public typealias Point = ProductSections
    public static let id = "reviews"
    public static let settings: PluginSchema = ["shown": .int]

    /// Registers `shop://product/<int:id>/reviews/new`; the database is the app's ``Storage`` service.
    public static func register(in context: ModuleContext) throws {
        let book = ReviewBook(storage: try context.services.resolve(Storage.self))
        let events = context.events
        let services = context.services
        try context.router.register(ReviewRoute.New.self, owner: id) { route, _ in
            // With a catalog in the app, a review needs a product to be about.
            if services.isRegistered((any ProductCatalog).self), try await services.resolve((any ProductCatalog).self).product(id: route.id) == nil {
                throw ReviewError(reason: "there is no product \(route.id)")
            }
            let review = try book.add(productID: route.id, rating: route.rating, text: route.text ?? "", author: route.by)
            events.publish(ReviewStored(productID: review.productID, rating: review.rating))
            return try ReviewScreens.saved(review)
        }
    }

    public static func make(_ context: PluginContext) throws -> any ProductSectionPlugin {
        ReviewsSection(book: ReviewBook(storage: try context.services.resolve(Storage.self)), shown: context.settings.int("shown", default: 3))
    }
}

/// The routes the reviews plugin owns.
public enum ReviewRoute {
    /// Writes a review of product `id`: `?rating=1...5&text=...&by=...`, then shows it was saved.
    public struct New: Route, Equatable {
        public static let pattern: RoutePattern = "shop://product/<int:id>/reviews/new"
        /// The product reviewed.
        public var id: Int
        /// 1 to 5 stars.
        public var rating: Int
        /// What the reviewer says.
        public var text: String?
        /// Who wrote it (shown as "a customer" when absent).
        public var by: String?
        /// Creates the route.
        public init(id: Int, rating: Int, text: String? = nil, by: String? = nil) {
            self.id = id
            self.rating = rating
            self.text = text
            self.by = by
        }
    }
}

/// App-wide: a review was stored. Each page's reviews plugin turns it into the page's ``ReviewAdded``.
struct ReviewStored: AppEvent {
    var productID: Int
    var rating: Int
}

/// One page's reviews section, kept until a review of its product is stored.
final class ReviewsSection: ProductSectionPlugin {
    private let book: ReviewBook
    private let shown: Int
    /// The product of the page, known from the first section asked for.
    private let product = Mutex<Int?>(nil)
    private let pageEvents = Mutex<EventBus?>(nil)
    private let cached = Mutex<ProductSection?>(nil)

    init(book: ReviewBook, shown: Int) {
        self.book = book
        self.shown = max(0, shown)
    }

    func attach(_ context: PluginContext) throws {
        pageEvents.withLock { $0 = context.events }
        context.appEvents.subscribe(self, to: ReviewStored.self) { section, stored in section.stored(stored) }
    }

    func detach() {
        pageEvents.withLock { $0 = nil }
    }

    private func stored(_ event: ReviewStored) {
        guard product.withLock({ $0 }) == event.productID, let bus = pageEvents.withLock({ $0 }) else { return }
        cached.withLock { $0 = nil }
        bus.publish(ReviewAdded(productID: event.productID, rating: event.rating))
    }

    func section(for product: ProductSummary) async throws -> ProductSection? {
        if self.product.withLock({ $0 }) == product.id, let section = cached.withLock({ $0 }) { return section }
        self.product.withLock { $0 = product.id }
        let reviews = try book.reviews(of: product.id)
        var section = ProductSection(heading: "Reviews")
        if reviews.isEmpty {
            section.elements.append(.text("No reviews yet."))
        } else {
            let average = Double(reviews.map(\.rating).reduce(0, +)) / Double(reviews.count)
            let count = reviews.count == 1 ? "1 review" : "\(reviews.count) reviews"
            section.elements.append(.text("Average rating: \(ReviewScreens.stars(average)) \(String(format: "%.1f", average)) of 5 (\(count))"))
            for review in reviews.prefix(shown) {
                section.elements.append(.text("\(ReviewScreens.stars(Double(review.rating))) \(review.text) (\(review.author ?? "a customer"))"))
            }
        }
        let write = try ReviewRoute.New(id: product.id, rating: 5, text: "Great").url()
        section.elements.append(.link(Link(title: "Write a 5-star review", url: write)))
        cached.withLock { $0 = section }
        return section
    }
}
