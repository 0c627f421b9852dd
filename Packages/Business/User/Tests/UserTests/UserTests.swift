import Router
import ScreenKit
import Session
import Storage
import Synchronization
import Testing
import User
import UserInterface

private final class EventLog: Sendable {
    let entries = Mutex<[String]>([])
}

@Suite struct UserTests {
    private func boot(_ session: Session) throws -> Router {
        let router = Router()
        try router.register("shop://order/list", owner: "test", options: RouteOptions(labels: [UserRouteLabel.requiresLogin])) { request in
            Screen(title: "Orders", elements: [.text("origin \(request.origin.rawValue)")])
        }
        try UserModule(session: session).register(in: ModuleContext(router: router))
        return router
    }

    @Test func withoutArgumentsTheModuleKeepsItsSessionInTheAppsStorageService() async throws {
        let storage = try Storage()
        let router = Router()
        try router.services.register(Storage.self, owner: "app", instance: storage)
        try UserModule().register(in: ModuleContext(router: router))
        _ = try await router.open("shop://user/login/alice")
        let again = try boot(Session(storage: storage))
        #expect(try await again.open("shop://user/profile", as: Screen.self).title == "Account")
        #expect(try await again.open("shop://user/profile", as: Screen.self).elements.contains { "\($0)".contains("Alice") })
    }

    @Test func signInAndOutChangeTheProfileAndAnnounceIt() async throws {
        let router = try boot(Session(storage: Storage()))
        let log = EventLog()
        router.events.subscribe(log, to: UserSignedIn.self) { log, event in log.entries.withLock { $0.append("in \(event.user.id)") } }
        router.events.subscribe(log, to: UserSignedOut.self) { log, event in log.entries.withLock { $0.append("out \(event.user.id)") } }

        #expect(try await router.open("shop://user/profile", as: Screen.self).elements.contains(.text("You are not signed in.")))
        let signedIn = try await router.open("shop://user/login/bob", as: Screen.self)
        #expect(signedIn.elements.contains(.text("Signed in as Bob Marley (bob).")))
        #expect(try await router.services.resolve((any AccountService).self).currentUser()?.id == "bob")
        _ = try await router.open("shop://user/logout")
        #expect(try await router.services.resolve((any AccountService).self).currentUser() == nil)
        #expect(log.entries.withLock { $0 } == ["in bob", "out bob"])
    }

    @Test func loginResumesTheNextAppRouteButNeverAWebPage() async throws {
        let router = try boot(Session(storage: Storage()))
        let chooser = try await router.open("shop://user/login?next=shop://order/list", as: Screen.self)
        #expect(
            chooser.links.map(\.url) == [
                "shop://user/login/alice?next=shop%3A%2F%2Forder%2Flist", "shop://user/login/bob?next=shop%3A%2F%2Forder%2Flist",
            ])
        let resumed = try await router.open(chooser.links[0].url, as: Screen.self)
        #expect(resumed.title == "Orders")
        #expect(resumed.elements == [.text("origin in-app")])
        let web = try await router.open("shop://user/login/alice?next=https://evil.example", as: Screen.self)
        #expect(web.title == "Account")
    }

    @Test func routesThatRequireLoginGoToSignInFirstAndResume() async throws {
        let router = try boot(Session(storage: Storage()))
        let chooser = try await router.open("shop://order/list", as: Screen.self)
        #expect(chooser.title == "Sign in")
        #expect(chooser.links.first?.url == "shop://user/login/alice?next=shop%3A%2F%2Forder%2Flist")
        #expect(try await router.open(chooser.links[0].url, as: Screen.self).title == "Orders")
        #expect(try await router.open("shop://order/list", as: Screen.self).title == "Orders")
    }

    @Test func unknownAccountShowsTheChooserAgain() async throws {
        let screen = try await boot(Session(storage: Storage())).open("shop://user/login/mallory", as: Screen.self)
        #expect(screen.title == "Sign in")
        #expect(screen.elements.first == .text("There is no account 'mallory'."))
    }

    @Test func aSessionRevokedPushSignsOutAndSendsTheAppsOwnEvent() async throws {
        let router = Router()
        let context = ModuleContext(router: router)
        let heard = EventLog()
        let listener = Listener(log: heard)
        let manager = try ModuleManager(modules: [UserModule(session: Session(storage: Storage())), listener], context: context)
        manager.registerAll()
        _ = try await router.open("shop://user/login/alice")
        await manager.send(.notification(PushNotification(["type": "session-revoked", "user": "bob"])))
        #expect(try await router.open("shop://user/profile", as: Screen.self).elements.contains { "\($0)".contains("Alice") }, "bob's session, not alice's")
        await manager.send(.notification(PushNotification(["type": "order-shipped"])))
        #expect(heard.entries.withLock { $0 }.isEmpty)
        await manager.send(.notification(PushNotification(["type": "session-revoked"])))
        #expect(try await router.open("shop://user/profile", as: Screen.self).elements.contains { "\($0)".contains("You are not signed in.") })
        #expect(heard.entries.withLock { $0 } == ["user.signed-out alice"])
    }
}

/// A module that hears the User component's own event.
private struct Listener: AppModule {
    let name = "listener"
    let events: Set<LifecycleEvent.Kind> = [UserModule.signedOut]
    let log: EventLog

    func register(in context: ModuleContext) throws {}

    func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        if case .custom(let kind, let values) = event { log.entries.withLock { $0.append("\(kind) \(values["user"] ?? "")") } }
    }

}
