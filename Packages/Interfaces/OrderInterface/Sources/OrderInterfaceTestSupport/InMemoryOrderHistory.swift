public import OrderInterface
import Synchronization

/// An ``OrderHistory`` a test fills, for components that show or react to past orders.
public final class InMemoryOrderHistory: OrderHistory {
    private let placed: Mutex<[OrderSummary]>

    /// A history holding `orders`.
    public init(_ orders: [OrderSummary] = []) {
        placed = Mutex(orders)
    }

    public func orders(of userID: String) async throws -> [OrderSummary] {
        placed.withLock { $0 }.filter { $0.userID == userID }.sorted { ($0.placedAt, $0.id) > ($1.placedAt, $1.id) }
    }

    public func orders(containing productID: Int) async throws -> [OrderSummary] {
        placed.withLock { $0 }.filter { $0.lines.contains { $0.productID == productID } }.sorted { ($0.placedAt, $0.id) > ($1.placedAt, $1.id) }
    }

    /// Adds `order` to the history.
    public func record(_ order: OrderSummary) {
        placed.withLock { $0.append(order) }
    }
}
