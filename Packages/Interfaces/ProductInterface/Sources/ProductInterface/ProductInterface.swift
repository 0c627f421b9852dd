public import Models
public import Router
public import ScreenKit

/// What every component may know about a product.
public struct ProductSummary: Sendable, Hashable, Codable {
    /// The catalog id.
    public var id: Int
    /// The product's name.
    public var name: String
    /// The unit price.
    public var price: Money
    /// One line about the product.
    public var blurb: String

    /// Creates a summary.
    public init(id: Int, name: String, price: Money, blurb: String) {
        self.id = id
        self.name = name
        self.price = price
        self.blurb = blurb
    }
}

/// The product catalog, provided by the Product component.
public protocol ProductCatalog: Sendable {
    /// Every product, in catalog order.
    func allProducts() async throws -> [ProductSummary]
    /// The product with `id`, or nil.
    func product(id: Int) async throws -> ProductSummary?
    /// Products whose name or blurb contains `text`, case-insensitively.
    func search(_ text: String) async throws -> [ProductSummary]
}

/// The routes the Product component owns.
public enum ProductRoute {
    /// The whole catalog.
    public struct List: Route, Equatable {
        public static let pattern: RoutePattern = "shop://product/list"
        /// Creates the route.
        public init() {}
    }

    /// One product's page.
    public struct Detail: Route, Equatable {
        public static let pattern: RoutePattern = "shop://product/<int:id>"
        /// The product's id.
        public var id: Int
        /// Creates the route.
        public init(id: Int) { self.id = id }
    }

    /// Products matching a search text (`?q=`).
    public struct Search: Route, Equatable {
        public static let pattern: RoutePattern = "shop://product/search"
        /// The text to look for; an empty search lists nothing.
        public var q: String?
        /// Creates the route.
        public init(q: String?) { self.q = q }
    }
}

/// The product page's sections: an extension point whose plugins each add a section to a product's
/// page (reviews, recommendations, shipping). The page is a container: one per product shown, with a
/// bus of its own that carries ``ReviewAdded`` and, forwarded from the app, cart changes.
public enum ProductSections: ExtensionPoint {
    public static let id: ExtensionPointID = "product-interface/sections"
    public typealias Plugin = any ProductSectionPlugin
}

/// A plugin of the product page.
public protocol ProductSectionPlugin: ContainerPlugin {
    /// The section for `product`, or nil to show nothing on this page.
    func section(for product: ProductSummary) async throws -> ProductSection?
}

/// A section of the product page: a heading and what is under it.
public struct ProductSection: Sendable, Hashable {
    /// The section's heading.
    public var heading: String
    /// Its content, top to bottom.
    public var elements: [Screen.Element]

    /// Creates a section.
    public init(heading: String, elements: [Screen.Element] = []) {
        self.heading = heading
        self.elements = elements
    }
}

/// Published on a product page's bus when a review of its product was written.
public struct ReviewAdded: AppEvent {
    /// The product reviewed.
    public var productID: Int
    /// The rating given, 1 to 5.
    public var rating: Int
    /// Creates the event.
    public init(productID: Int, rating: Int) {
        self.productID = productID
        self.rating = rating
    }
}
