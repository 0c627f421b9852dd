public import Models
public import Router

/// One product in the cart, priced when it was added.
public struct CartLine: Sendable, Hashable, Codable {
    /// The product's catalog id.
    public var productID: Int
    /// The product's name.
    public var name: String
    /// The price of one unit.
    public var unitPrice: Money
    /// How many units.
    public var quantity: Int

    /// Creates a line.
    public init(productID: Int, name: String, unitPrice: Money, quantity: Int) {
        self.productID = productID
        self.name = name
        self.unitPrice = unitPrice
        self.quantity = quantity
    }

    /// The price of all units of the line.
    public var total: Money { unitPrice.times(quantity) }
}

/// The shopping cart, provided by the Cart component; it survives restarts.
public protocol CartService: Sendable {
    /// The lines, in the order they were first added.
    func lines() async throws -> [CartLine]
    /// Adds `quantity` units of a product; returns the line as it is now.
    @discardableResult
    func add(productID: Int, quantity: Int) async throws -> CartLine
    /// Removes a product's line entirely; returns whether it was there.
    @discardableResult
    func remove(productID: Int) async throws -> Bool
    /// Empties the cart.
    func clear() async throws
}

/// Published by Cart whenever the cart's contents change.
public struct CartChanged: AppEvent {
    /// Units in the cart after the change.
    public var itemCount: Int
    /// Creates the event.
    public init(itemCount: Int) { self.itemCount = itemCount }
}

/// The routes the Cart component owns.
public enum CartRoute {
    /// The cart's contents and total.
    public struct Show: Route, Equatable {
        public static let pattern: RoutePattern = "shop://cart"
        /// Creates the route.
        public init() {}
    }

    /// Adds a product (`?quantity=`, default 1), then shows the cart.
    public struct Add: Route, Equatable {
        public static let pattern: RoutePattern = "shop://cart/add/<int:productID>"
        /// The product to add.
        public var productID: Int
        /// How many units; 1 when absent.
        public var quantity: Int?
        /// Creates the route.
        public init(productID: Int, quantity: Int? = nil) {
            self.productID = productID
            self.quantity = quantity
        }
    }

    /// Removes a product's line, then shows the cart.
    public struct Remove: Route, Equatable {
        public static let pattern: RoutePattern = "shop://cart/remove/<int:productID>"
        /// The product to remove.
        public var productID: Int
        /// Creates the route.
        public init(productID: Int) { self.productID = productID }
    }

    /// Empties the cart, then shows it.
    public struct Clear: Route, Equatable {
        public static let pattern: RoutePattern = "shop://cart/clear"
        /// Creates the route.
        public init() {}
    }
}
