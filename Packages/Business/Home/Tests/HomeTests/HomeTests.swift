import CartInterface
import CartInterfaceTestSupport
import Foundation
import Home
import Models
import ProductInterface
import ProductInterfaceTestSupport
import Router
import ScreenKit
import HomeInterface
import Testing
import UserInterface
import UserInterfaceTestSupport

@Suite struct HomeTests {
    private func home(settings: [String: String] = [:], layout: HomeLayout? = nil, services: (ServiceRegistry) throws -> Void = { _ in }) async throws -> Screen
    {
        let router = Router()
        try services(router.services)
        try HomeModule(layout: layout).register(in: ModuleContext(router: router, settings: settings))
        return try await router.open("shop://home", as: Screen.self)
    }

    @Test func bundledLayoutRendersWithoutOtherComponents() async throws {
        let screen = try await home()
        #expect(screen.title == "Shop")
        #expect(screen.elements.contains(.text("* Winter sale: free shipping on orders over $50. *")))
        #expect(screen.links.map(\.url).contains("shop://product/list"))
    }

    @Test func sectionsUseWhatTheOtherComponentsProvide() async throws {
        let screen = try await home { services in
            try services.register((any ProductCatalog).self, owner: "t", instance: InMemoryProductCatalog())
            try services.register((any AccountService).self, owner: "t", instance: StubAccountService(signedIn: UserAccount(id: "alice", displayName: "Alice")))
            try services.register(
                (any CartService).self, owner: "t",
                instance: InMemoryCartService(lines: [CartLine(productID: 1, name: "Mug", unitPrice: Money(cents: 500), quantity: 2)]))
        }
        #expect(screen.elements.contains(.text("Welcome back, Alice.")))
        #expect(screen.links.contains(Link(title: "Mug — $5.00", url: "shop://product/1")))
        #expect(screen.links.contains(Link(title: "Cart: 2 items, $10.00", url: "shop://cart")))
    }

    @Test func promotionsAnnouncedOnTheAppsBusLeadTheScreenNewestFirst() async throws {
        let router = Router()
        try HomeModule().register(in: ModuleContext(router: router))
        router.events.publish(HomePromotion(title: "Winter sale", url: "shop://campaign/winter"))
        router.events.publish(HomePromotion(title: "Tea week", url: "shop://campaign/tea"))
        router.events.publish(HomePromotion(title: "Winter sale: last days", url: "shop://campaign/winter"))
        let screen = try await router.open("shop://home", as: Screen.self)
        #expect(
            Array(screen.links.prefix(2)) == [
                Link(title: "Winter sale: last days", url: "shop://campaign/winter"), Link(title: "Tea week", url: "shop://campaign/tea"),
            ])
    }

    @Test func aLayoutFileReplacesTheBundledOne() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID()).json").path
        try #"{"title": "Sale", "sections": [{"kind": "banner", "text": "50% off"}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let screen = try await home(settings: [HomeModule.layoutSetting: path])
        #expect(screen == Screen(title: "Sale", elements: [.text("* 50% off *")], refreshURL: "shop://home"))
    }

    @Test func aBrokenOrUnknownSectionIsSkippedWithItsReasonAndTheRestShows() throws {
        let data = Data(
            #"{"title": "x", "sequence": 4, "theme": "dark", "sections": [{"kind": "banner", "text": "ok"}, {"kind": "carousel"}, {"kind": "featured", "title": "F"}, {"kind": "cart"}]}"#
                .utf8)
        let layout = try HomeLayout.decode(data, source: "f.json")
        #expect(layout.sections == [.banner(text: "ok"), .cart])
        #expect(layout.sequence == 4, "unknown fields are ignored, known ones read")
        #expect(
            layout.skipped == [
                "sections[1]: unknown section kind 'carousel'; use greeting, banner, featured, cart or links", "sections[2]: its 'products' is missing",
            ])
    }

    @Test func aLayoutThatIsNoLayoutIsAClearErrorNamingThePlace() throws {
        #expect(throws: HomeError.badLayout(source: "/nonexistent.json", reason: "the file cannot be read")) {
            try HomeLayout.load(path: "/nonexistent.json")
        }
        #expect(throws: HomeError.self) { try HomeLayout.decode(Data("{".utf8), source: "f.json") }
        #expect(throws: HomeError.badLayout(source: "f.json", reason: ".title is missing")) {
            try HomeLayout.decode(Data(#"{"sections": []}"#.utf8), source: "f.json")
        }
    }

    @Test func theLayoutIsReadAgainWhenTheAppComesToTheForeground() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID()).json").path
        try #"{"title": "Sale", "sections": []}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let router = Router()
        let context = ModuleContext(router: router, settings: [HomeModule.layoutSetting: path])
        let manager = try ModuleManager(modules: [HomeModule()], context: context)
        manager.registerAll()
        #expect(try await router.open("shop://home", as: Screen.self).title == "Sale")
        try #"{"title": "Spring", "sections": []}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await router.open("shop://home", as: Screen.self).title == "Sale", "nothing changes until the App is back")
        await manager.send(.foreground)
        #expect(try await router.open("shop://home", as: Screen.self).title == "Spring")
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        await manager.send(.foreground)
        #expect(try await router.open("shop://home", as: Screen.self).title == "Spring", "a refresh that fails keeps the layout shown")
    }
}
