import Router
import Synchronization
import Testing

private struct Promotion: AppEvent { var title: String }

private final class Listener: Sendable {
    let heard = Mutex<[String]>([])
}

private struct Spy: RouteInterceptor {
    var name: String { "spy" }
    var priority: Int { 1 }
    var scope: InterceptorScope { .all }
    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async { decision.proceed() }
}

/// An App's router with the User module's sign-in route, and a plugin scope declaring `patterns`.
private func appRouter(declaring patterns: [String] = ["myapp://campaign/:name"]) throws -> (app: Router, plugin: Router, scope: PluginScope) {
    let app = Router()
    try app.register("myapp://user/login/:userID", owner: "user") { _ in "sign-in" }
    let scope = try PluginScope(owner: "campaign", patterns: patterns)
    return (app, app.narrowed(to: scope), scope)
}

@Test func aNarrowedRouterRegistersOnlyTheDeclaredPatternsAsThePlugin() throws {
    let (app, plugin, scope) = try appRouter()
    try plugin.register("myapp://campaign/:campaign", owner: "campaign") { _ in "page" }
    #expect(app.routes.map(\.pattern).contains("myapp://campaign/:campaign"), "one shape as declared: the capture name does not matter")
    let undeclared = #expect(throws: RouterError.self) { try plugin.register("myapp://campaign/:name/more", owner: "campaign") { _ in nil } }
    #expect(undeclared?.code == .outsidePluginScope)
    #expect(undeclared?.description.contains("which its manifest does not declare") == true)
    let foreign = #expect(throws: RouterError.self) { try plugin.register("myapp://campaign/other", owner: "user") { _ in nil } }
    #expect(foreign?.description.contains("for 'user'") == true)
    #expect(scope.breaches.count == 2)
}

@Test func aNarrowedRouterNeverTakesWhatTheAppOwns() throws {
    let (app, plugin, scope) = try appRouter()
    let unregister = #expect(throws: RouterError.self) { try plugin.unregister("myapp://user/login/:userID") }
    #expect(unregister?.description.contains("which 'user' owns") == true)
    #expect(plugin.unregisterAll(owner: "user").isEmpty)
    #expect(throws: RouterError.self) { try plugin.addInterceptor(Spy()) }
    plugin.setFallback { _ in "mine" }
    plugin.setWebContainer { _ in "mine" }
    plugin.setAllowedSchemes(["evil"])
    plugin.setDegradeTable(DegradeTable())
    plugin.setObserver { _ in }
    #expect(throws: RouterError.self) { try plugin.register(parameterType: ParameterType(name: "any") { _ in true }) }
    #expect(plugin.services.unregisterAll(owner: "user").isEmpty)
    #expect(throws: RouterError.self) { try plugin.plugins.install(points: [], definitions: [], declarations: []) }
    #expect(app.routes.map(\.owner) == ["user"], "the sign-in route is still the User module's")
    #expect(app.canOpen("myapp://user/login/alice"))
    #expect(
        scope.breaches == [
            "unregister myapp://user/login/:userID, which 'user' owns", "unregister the routes of 'user'", "add the interceptor 'spy'",
            "set the fallback", "set the web container", "set the schemes routes may use", "replace the degrade table", "set the routing observer",
            "add the parameter type 'any'", "remove the services of 'user'", "install the App's plugins",
        ])
}

@Test func aRegistrationAfterTheLoadIsRefusedAndReported() throws {
    let (app, plugin, scope) = try appRouter()
    let reported = Mutex<[String]>([])
    // As the App's loader does: a late breach turns the plugin off, which changes the routes.
    scope.accept { action in
        reported.withLock { $0.append(action) }
        app.unregisterAll(owner: "campaign")
    }
    #expect(throws: RouterError.self) { try plugin.unregister("myapp://user/login/:userID") }
    let late = #expect(throws: RouterError.self) { try plugin.register("myapp://campaign/:name", owner: "campaign") { _ in nil } }
    #expect(late?.description.contains("registers while it loads, never later") == true)
    #expect(throws: RouterError.self) { try plugin.services.register(String.self, owner: "campaign", instance: "late") }
    #expect(
        reported.withLock { $0 } == [
            "unregister myapp://user/login/:userID, which 'user' owns", "register the route myapp://campaign/:name after its load finished",
            "provide the service String",
        ])
    #expect(app.routes.count == 1)
}

@Test func eventsAPluginPublishesWhileLoadingWaitForItsLoadToBeAccepted() throws {
    let (app, plugin, scope) = try appRouter()
    let home = Listener()
    app.events.subscribe(home, to: Promotion.self) { listener, event in listener.heard.withLock { $0.append(event.title) } }
    plugin.events.publish(Promotion(title: "Winter sale"))
    #expect(home.heard.withLock { $0 }.isEmpty, "held while the plugin loads")
    scope.accept { _ in }
    #expect(home.heard.withLock { $0 } == ["Winter sale"])
    plugin.events.publish(Promotion(title: "later"))
    #expect(home.heard.withLock { $0 } == ["Winter sale", "later"], "after the load, at once")
}

@Test func aRefusedLoadDropsItsEventsAndItsSubscriptions() throws {
    let (app, plugin, scope) = try appRouter()
    let home = Listener(), spy = Listener()
    app.events.subscribe(home, to: Promotion.self) { listener, event in listener.heard.withLock { $0.append(event.title) } }
    plugin.events.subscribe(spy, to: Promotion.self) { listener, event in listener.heard.withLock { $0.append(event.title) } }
    plugin.events.publish(Promotion(title: "Winter sale"))
    scope.revoke(on: app.events)
    app.events.publish(Promotion(title: "from the App"))
    #expect(home.heard.withLock { $0 } == ["from the App"], "the refused plugin's promotion never arrives")
    #expect(spy.heard.withLock { $0 }.isEmpty, "its subscription ended")
    plugin.events.publish(Promotion(title: "later, from a task it left behind"))
    plugin.events.subscribe(spy, to: Promotion.self) { listener, event in listener.heard.withLock { $0.append(event.title) } }
    app.events.publish(Promotion(title: "again"))
    #expect(home.heard.withLock { $0 } == ["from the App", "again"], "nothing it publishes after the refusal arrives")
    #expect(spy.heard.withLock { $0 }.isEmpty, "nor does it subscribe again")
}

@Test func callsIntoThePluginRunInsideItsMarks() async throws {
    let marks = Mutex<[String]>([])
    let calls = PluginCalls(enter: { marks.withLock { $0.append("enter") } }, leave: { marks.withLock { $0.append("leave") } })
    let app = Router()
    let scope = try PluginScope(owner: "campaign", patterns: ["myapp://campaign/:name"], calls: calls)
    try app.narrowed(to: scope).register("myapp://campaign/:name", owner: "campaign") { _ in
        marks.withLock { $0.append("page") }
        return "page"
    }
    _ = try await app.open("myapp://campaign/winter")
    #expect(marks.withLock { $0 } == ["enter", "page", "leave"])
}

@Test(arguments: [
    ("myapp://user/login/alice", "myapp://user/login/:userID", true),
    ("myapp://user/:a/:b", "myapp://user/login/:userID", true),
    ("myapp://USER/login/alice", "myapp://user/login/:userID", true),
    ("myapp://user/*rest", "myapp://user/login/:userID", true),
    ("myapp://user/*rest", "myapp://user", false),
    ("myapp://user/login", "myapp://user/login/:userID", false),
    ("myapp://user/logout/:id", "myapp://user/login/:userID", false),
    ("myapp://product/specials", "myapp://product/<int:id>", false),
    ("myapp://product/42", "myapp://product/<int:id>", true),
    ("myapp://product/<uuid:id>", "myapp://product/<int:id>", true),
    ("other://user/login/alice", "myapp://user/login/:userID", false),
    ("myapp://campaign/:name", "myapp://user/login/:userID", false),
])
func patternsOverlapWhenSomeURLMatchesBoth(_ first: String, _ second: String, _ overlap: Bool) throws {
    let router = Router()
    try router.register(second, owner: "app") { _ in nil }
    #expect((router.overlappingRoute(try RoutePattern(parsing: first)) != nil) == overlap)
    let accepts = { (type: String, literal: String) in ParameterType.builtIn.first { $0.name == type }?.matches(literal) ?? true }
    #expect(try RoutePattern(parsing: second).overlaps(try RoutePattern(parsing: first), accepts: accepts) == overlap, "either way round")
}
