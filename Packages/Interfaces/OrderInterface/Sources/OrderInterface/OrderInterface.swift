public import Foundation
public import Models
public import Router

/// One product of a placed order, priced as it was sold.
public struct OrderLine: Sendable, Hashable, Codable {
    /// The product's catalog id.
    public var productID: Int
    /// The product's name when ordered.
    public var name: String
    /// Units ordered.
    public var quantity: Int
    /// The price of one unit when ordered.
    public var unitPrice: Money

    /// Creates a line.
    public init(productID: Int, name: String, quantity: Int, unitPrice: Money) {
        self.productID = productID
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
    }
}

/// A placed order.
public struct OrderSummary: Sendable, Hashable, Codable {
    /// The order number.
    public var id: Int
    /// Who placed it.
    public var userID: String
    /// What was ordered.
    public var lines: [OrderLine]
    /// The amount charged.
    public var total: Money
    /// When it was placed.
    public var placedAt: Date

    /// Creates a summary.
    public init(id: Int, userID: String, lines: [OrderLine], total: Money, placedAt: Date) {
        self.id = id
        self.userID = userID
        self.lines = lines
        self.total = total
        self.placedAt = placedAt
    }
}

/// The orders users placed, provided by the Order component.
public protocol OrderHistory: Sendable {
    /// The orders of `userID`, newest first.
    func orders(of userID: String) async throws -> [OrderSummary]
    /// Every order, of any user, with a line of product `productID`, newest first ("customers also bought").
    func orders(containing productID: Int) async throws -> [OrderSummary]
}

/// Published by Order after an order is placed (Cart empties itself on it).
public struct OrderPlaced: AppEvent {
    /// The new order.
    public var order: OrderSummary
    /// Creates the event.
    public init(order: OrderSummary) { self.order = order }
}

/// The routes the Order component owns.
public enum OrderRoute {
    /// The signed-in user's orders, or an invitation to sign in.
    public struct List: Route, Equatable {
        public static let pattern: RoutePattern = "shop://order/list"
        /// Creates the route.
        public init() {}
    }

    /// One order of the signed-in user.
    public struct Detail: Route, Equatable {
        public static let pattern: RoutePattern = "shop://order/<int:id>"
        /// The order number.
        public var id: Int
        /// Creates the route.
        public init(id: Int) { self.id = id }
    }

    /// Shows the order the cart would make, to review before placing it (signing in first when needed).
    public struct Checkout: Route, Equatable {
        public static let pattern: RoutePattern = "shop://order/checkout"
        /// Creates the route.
        public init() {}
    }

    /// Places the order the cart makes: the "Place order" link of the review.
    public struct Place: Route, Equatable {
        public static let pattern: RoutePattern = "shop://order/place"
        /// Creates the route.
        public init() {}
    }
}
