import Cart
import CartInterface
import Foundation
import HomeInterface
import Models
import OrderInterface
import ProductInterface
import ProductInterfaceTestSupport
import Router
import ScreenKit
import Storage
import Synchronization
import Testing

private final class CountWatcher: Sendable {
    let counts = Mutex<[Int]>([])
}

@Suite struct CartTests {
    private func boot(storage: Storage) throws -> Router {
        let router = Router()
        try router.services.register((any ProductCatalog).self, owner: "test", instance: InMemoryProductCatalog())
        try CartModule(storage: storage).register(in: ModuleContext(router: router))
        return router
    }

    @Test func withoutArgumentsTheModuleKeepsTheCartInTheAppsStorageService() async throws {
        let router = Router()
        try router.services.register((any ProductCatalog).self, owner: "test", instance: InMemoryProductCatalog())
        #expect(throws: (any Error).self, "no Storage service yet") { try CartModule().register(in: ModuleContext(router: router)) }
        let storage = try Storage()
        try router.services.register(Storage.self, owner: "app", instance: storage)
        try CartModule().register(in: ModuleContext(router: router))
        _ = try await router.open("shop://cart/add/1")
        let again = try boot(storage: storage)
        #expect(try await again.open("shop://cart", as: Screen.self).elements.contains(.text("Total: $5.00")), "the line is in the service's storage")
    }

    @Test func addMergesLinesAndShowsTheTotal() async throws {
        let router = try boot(storage: Storage())
        _ = try await router.open("shop://cart/add/1")
        _ = try await router.open("shop://cart/add/2?quantity=2")
        let screen = try await router.open("shop://cart/add/1", as: Screen.self)
        #expect(screen.elements.contains(.text("2 × Mug @ $5.00 = $10.00")))
        #expect(screen.elements.contains(.text("Total: $28.00")))
        #expect(screen.links.first?.url == "shop://order/checkout")
    }

    @Test func badQuantityAndUnknownProductShowANotice() async throws {
        let router = try boot(storage: Storage())
        let zero = try await router.open("shop://cart/add/1?quantity=0", as: Screen.self)
        #expect(zero.elements.first == .text("Cannot add 0 units: add between 1 and 99."))
        let unknown = try await router.open("shop://cart/add/77", as: Screen.self)
        #expect(unknown.elements.first == .text("There is no product number 77."))
        #expect(try await router.services.resolve((any CartService).self).lines().isEmpty)
    }

    @Test func cartSurvivesARestartOnTheSameDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cart-\(UUID()).sqlite").path
        _ = try await boot(storage: Storage(path: path)).open("shop://cart/add/2?quantity=3")
        let reopened = try boot(storage: Storage(path: path))
        #expect(try await reopened.services.resolve((any CartService).self).lines().map(\.quantity) == [3])
    }

    @Test func publishesChangesAndEmptiesWhenAnOrderIsPlaced() async throws {
        let router = try boot(storage: Storage())
        let watcher = CountWatcher()
        router.events.subscribe(watcher, to: CartChanged.self) { watcher, event in watcher.counts.withLock { $0.append(event.itemCount) } }
        _ = try await router.open("shop://cart/add/1?quantity=2")
        _ = try await router.open("shop://cart/remove/1")
        _ = try await router.open("shop://cart/add/2")
        router.events.publish(OrderPlaced(order: OrderSummary(id: 1, userID: "a", lines: [], total: .zero("USD"), placedAt: Date())))
        #expect(watcher.counts.withLock { $0 } == [2, 0, 1, 0])
        let screen = try await router.open("shop://cart", as: Screen.self)
        #expect(screen.elements.contains(.text("Your cart is empty.")))
    }

    @Test func goingToTheBackgroundWithAFullCartLeavesAReminderForTheNextLaunch() async throws {
        let storage = try Storage()
        func session() throws -> (Router, CartModule, ModuleContext) {
            let router = Router()
            try router.services.register((any ProductCatalog).self, owner: "test", instance: InMemoryProductCatalog())
            let module = CartModule(storage: storage)
            let context = ModuleContext(router: router)
            try module.register(in: context)
            return (router, module, context)
        }
        let promotions = Mutex<[String]>([])
        let watcher = CountWatcher()
        let (router, module, context) = try session()
        _ = try await router.open("shop://cart/add/1?quantity=2")
        try await module.handle(.background, in: context)

        let (next, nextModule, nextContext) = try session()
        next.events.subscribe(watcher, to: HomePromotion.self) { _, promotion in promotions.withLock { $0.append(promotion.title) } }
        try await nextModule.handle(.launch(.plain), in: nextContext)
        #expect(promotions.withLock { $0 } == ["Your cart is waiting: 2 items, $10.00"])
        _ = try await next.open("shop://cart/add/2")
        try await nextModule.handle(.launch(.plain), in: nextContext)
        #expect(promotions.withLock { $0 }.count == 1, "a change to the cart forgets the reminder")

        try await nextModule.handle(.background, in: nextContext)
        try await nextModule.handle(.custom("user.signed-out", ["user": "alice"]), in: nextContext)
        try await nextModule.handle(.launch(.plain), in: nextContext)
        #expect(promotions.withLock { $0 }.count == 1, "signing out forgets it")
    }

}
