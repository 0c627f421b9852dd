import CartInterface
import Foundation
import Models
import OrderInterface
import OrderInterfaceTestSupport
import ProductInterface
import ProductInterfaceTestSupport
import Recommendations
import Router
import ScreenKit
import Synchronization
import Testing

/// An order history that counts how often it is asked.
private final class CountingHistory: OrderHistory {
    let base: InMemoryOrderHistory
    let asked = Mutex(0)
    init(_ base: InMemoryOrderHistory) { self.base = base }
    func orders(of userID: String) async throws -> [OrderSummary] { try await base.orders(of: userID) }
    func orders(containing productID: Int) async throws -> [OrderSummary] {
        asked.withLock { $0 += 1 }
        return try await base.orders(containing: productID)
    }
}

private func order(_ id: Int, _ lines: [(Int, Int)]) -> OrderSummary {
    OrderSummary(
        id: id, userID: "u\(id)", lines: lines.map { OrderLine(productID: $0.0, name: "#\($0.0)", quantity: $0.1, unitPrice: Money(cents: 100)) },
        total: Money(cents: 100), placedAt: Date(timeIntervalSince1970: Double(id)))
}

private func makeHarness(_ history: CountingHistory, limit: Int = 3) throws -> ProductPageHarness {
    let harness = ProductPageHarness()
    try harness.router.services.register((any OrderHistory).self, owner: "test", instance: history)
    try harness.router.services.register((any ProductCatalog).self, owner: "test", instance: harness.catalog)
    try harness.install(
        [RecommendationsPlugin.self],
        declarations: [PluginDeclaration(point: ProductSections.id, plugin: "recommendations", settings: ["limit": .int(limit)], source: "test")])
    return harness
}

@Test func productsOrderedTogetherAreRankedByUnits() async throws {
    let history = CountingHistory(InMemoryOrderHistory([order(1, [(1, 1), (3, 2)]), order(2, [(1, 1), (2, 1)]), order(3, [(2, 5)])]))
    let harness = try makeHarness(history)
    let text = TextRenderer().render(try await harness.render(harness.page(), productID: 1))
    let section = try #require(text.components(separatedBy: "## Customers also bought").last)
    #expect(section.contains("[1] Coffee Beans"))
    #expect(section.contains("[2] Pot"))
    let limited = try makeHarness(CountingHistory(history.base), limit: 1)
    let one = TextRenderer().render(try await limited.render(limited.page(), productID: 1))
    #expect(one.contains("Coffee Beans") && !one.contains("Pot"))
}

@Test func noOrdersOrNoHistoryMeansNoSection() async throws {
    let harness = try makeHarness(CountingHistory(InMemoryOrderHistory()))
    #expect(!TextRenderer().render(try await harness.render(harness.page(), productID: 1)).contains("Customers also bought"))
    let bare = ProductPageHarness()
    try bare.install([RecommendationsPlugin.self])
    #expect(!TextRenderer().render(try await bare.render(bare.page(), productID: 1)).contains("Customers also bought"))
}

@Test func aPageComputesOnceAndAgainOnlyAfterAnEventOfItsOwnBus() async throws {
    let history = CountingHistory(InMemoryOrderHistory([order(1, [(1, 1), (2, 1)])]))
    let harness = try makeHarness(history)
    let page = harness.page(), other = harness.page()
    _ = try await harness.render(page, productID: 1)
    _ = try await harness.render(page, productID: 1)
    #expect(history.asked.withLock { $0 } == 1)
    other.events.publish(ReviewAdded(productID: 1, rating: 5))
    harness.router.events.publish(CartChanged(itemCount: 1))
    _ = try await harness.render(page, productID: 1)
    #expect(history.asked.withLock { $0 } == 1, "another page's event and an unforwarded app event do not reach this page")
    page.events.publish(ReviewAdded(productID: 1, rating: 5))
    _ = try await harness.render(page, productID: 1)
    #expect(history.asked.withLock { $0 } == 2)
    page.events.publish(CartChanged(itemCount: 2))
    _ = try await harness.render(page, productID: 1)
    #expect(history.asked.withLock { $0 } == 3)
    history.base.record(order(2, [(1, 1), (3, 1)]))
    harness.router.events.publish(OrderPlaced(order: order(2, [(1, 1), (3, 1)])))
    let text = TextRenderer().render(try await harness.render(page, productID: 1))
    #expect(history.asked.withLock { $0 } == 4)
    #expect(text.contains("Coffee Beans"))
}
