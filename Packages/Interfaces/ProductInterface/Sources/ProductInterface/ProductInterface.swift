public import Models
public import Router

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
