import CartInterface
import CartInterfaceTestSupport
import Foundation
import Models
import Order
import OrderInterface
import Router
import ScreenKit
import Storage
import Synchronization
import Testing
import UserInterface
import UserInterfaceTestSupport

private final class PlacedLog: Sendable {
    let ids = Mutex<[Int]>([])
}

@Suite struct OrderTests {
    private let accounts = StubAccountService()
    private let cart = InMemoryCartService()

    private func boot() throws -> Router {
        let router = Router()
        try router.services.register((any AccountService).self, owner: "test", instance: accounts)
        try router.services.register((any CartService).self, owner: "test", instance: cart)
        try OrderModule(storage: Storage(), clock: { Date(timeIntervalSince1970: 0) }).register(in: ModuleContext(router: router))
        return router
    }

    @Test func signedOutUsersAreAskedToSignInAndComeBack() async throws {
        let router = try boot()
        let screen = try await router.open("shop://order/list", as: Screen.self)
        #expect(screen.elements.first == .text("Sign in to see your orders."))
        #expect(screen.links.map(\.url) == ["shop://user/login?next=shop%3A%2F%2Forder%2Flist"])
    }

    @Test func signingInChangesWhatTheListShows() async throws {
        let router = try boot()
        accounts.signIn(UserAccount(id: "alice", displayName: "Alice"))
        let empty = try await router.open("shop://order/list", as: Screen.self)
        #expect(empty.title == "Orders of Alice")
        #expect(empty.elements.contains(.text("No orders yet.")))
    }

    @Test func checkoutPlacesAnOrderAnnouncesItAndOnlyItsOwnerSeesIt() async throws {
        let router = try boot()
        let log = PlacedLog()
        router.events.subscribe(log, to: OrderPlaced.self) { log, event in log.ids.withLock { $0.append(event.order.id) } }
        accounts.signIn(UserAccount(id: "alice", displayName: "Alice"))
        try await cart.add(productID: 3, quantity: 2)

        let review = try await router.open("shop://order/checkout", as: Screen.self)
        #expect(review.title == "Review your order")
        #expect(review.elements.contains(.text("Total: $2.00")))
        #expect(review.links.first?.url == "shop://order/place")
        #expect(log.ids.withLock { $0 }.isEmpty)
        let placed = try await router.open("shop://order/place", as: Screen.self)
        #expect(placed.title == "Order 1")
        #expect(placed.elements.contains(.text("Total: $2.00")))
        #expect(placed.elements.contains(.text("Placed 1970-01-01")))
        #expect(log.ids.withLock { $0 } == [1])
        #expect(try await router.open("shop://order/list", as: Screen.self).links.first?.title == "Order 1: 2 items, $2.00")

        accounts.signIn(UserAccount(id: "bob", displayName: "Bob"))
        #expect(try await router.open("shop://order/1", as: Screen.self).title == "Order not found")
        #expect(try await router.services.resolve((any OrderHistory).self).orders(of: "alice").map(\.id) == [1])
    }

    @Test func checkoutWithAnEmptyCartPlacesNothing() async throws {
        let router = try boot()
        accounts.signIn(UserAccount(id: "alice", displayName: "Alice"))
        #expect(try await router.open("shop://order/checkout", as: Screen.self).title == "Checkout")
        #expect(try await router.open("shop://order/place", as: Screen.self).title == "Checkout")
        #expect(try await router.services.resolve((any OrderHistory).self).orders(of: "alice").isEmpty)
    }
}
