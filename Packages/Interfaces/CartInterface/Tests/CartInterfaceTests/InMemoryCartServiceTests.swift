import CartInterface
import CartInterfaceTestSupport
import Models
import Testing

@Suite struct InMemoryCartServiceTests {
    @Test func addMergesRemoveAndClearEmpty() async throws {
        let cart = InMemoryCartService { $0 == 1 ? ("Mug", Money(cents: 500)) : nil }
        try await cart.add(productID: 1, quantity: 2)
        #expect(try await cart.add(productID: 1, quantity: 1).quantity == 3)
        #expect(try await cart.lines() == [CartLine(productID: 1, name: "Mug", unitPrice: Money(cents: 500), quantity: 3)])
        await #expect(throws: InMemoryCartError.unknownProduct(7)) { try await cart.add(productID: 7, quantity: 1) }
        await #expect(throws: InMemoryCartError.notAQuantity(0)) { try await cart.add(productID: 1, quantity: 0) }
        #expect(try await cart.remove(productID: 1))
        #expect(try await !cart.remove(productID: 1))
        try await cart.add(productID: 1, quantity: 1)
        try await cart.clear()
        #expect(try await cart.lines().isEmpty)
    }
}
