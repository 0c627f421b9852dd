import CartInterface
public import Foundation
import Models
public import OrderInterface
public import Storage

/// Placed orders, kept in the app's database.
public struct OrderBook: OrderHistory {
    private let orders: StoredCollection<OrderSummary>
    private let clock: @Sendable () -> Date

    /// Orders stored in `storage`; `clock` is injectable for tests.
    public init(storage: Storage, clock: @escaping @Sendable () -> Date = Date.init) {
        self.orders = storage.collection("order.orders")
        self.clock = clock
    }

    public func orders(of userID: String) throws -> [OrderSummary] {
        try orders.values().filter { $0.userID == userID }.sorted { $0.id > $1.id }
    }

    public func orders(containing productID: Int) throws -> [OrderSummary] {
        try orders.values().filter { $0.lines.contains { $0.productID == productID } }.sorted { $0.id > $1.id }
    }

    /// The order `id` if `userID` placed it.
    public func order(id: Int, of userID: String) throws -> OrderSummary? {
        try orders.get(String(id)).flatMap { $0.userID == userID ? $0 : nil }
    }

    /// Places an order for `userID` from the cart's `lines`, numbered by the database.
    func place(_ lines: [CartLine], for userID: String) throws -> OrderSummary {
        let orderLines = lines.map { OrderLine(productID: $0.productID, name: $0.name, quantity: $0.quantity, unitPrice: $0.unitPrice) }
        // A checkout never gets an empty cart; an order is in one currency, so a mixed cart is refused.
        let amounts = lines.map(\.total)
        let total = try amounts.sum(in: amounts.first?.currency ?? Money.defaultCurrency)
        return try orders.append { id in
            OrderSummary(id: id, userID: userID, lines: orderLines, total: total, placedAt: clock())
        }.value
    }
}
