import Foundation
import Models
import OrderInterface
import OrderInterfaceTestSupport
import Testing

@Suite struct InMemoryOrderHistoryTests {
    @Test func eachUserSeesTheirOwnOrdersNewestFirst() async throws {
        func order(_ id: Int, _ user: String, day: Double) -> OrderSummary {
            OrderSummary(id: id, userID: user, lines: [], total: .zero("USD"), placedAt: Date(timeIntervalSince1970: day * 86_400))
        }
        let history = InMemoryOrderHistory([order(1, "alice", day: 1), order(2, "bob", day: 2)])
        history.record(order(3, "alice", day: 3))
        #expect(try await history.orders(of: "alice").map(\.id) == [3, 1])
        #expect(try await history.orders(of: "carol").isEmpty)
    }
}
