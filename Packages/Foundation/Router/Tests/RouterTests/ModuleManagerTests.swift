import Router
import Synchronization
import Testing

private struct Failure: Error, CustomStringConvertible {
    var description: String
}

private struct TestModule: AppModule {
    let name: String
    var priority: Int = 0
    var dependencies: [String] = []
    var events: Set<LifecycleEvent.Kind> = [.launch, .terminate]
    var announces: Set<LifecycleEvent.Kind> = []
    var launchTiming: LaunchTiming = .beforeFirstScreen
    var providesService = false
    var failsToRegister = false
    var failsToLaunch = false
    var onEvent: @Sendable (LifecycleEvent) async throws -> Void = { _ in }
    let log: Recorder

    func register(in context: ModuleContext) throws {
        log.add("register \(name)")
        try context.router.register("app://\(name)/first", owner: name) { _ in name }
        if providesService { try context.services.register(String.self, owner: name, instance: name) }
        if failsToRegister { throw Failure(description: "no database") }
    }

    func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        log.add("\(event.kind) \(name)")
        if case .launch = event, failsToLaunch { throw Failure(description: "the server is down") }
        try await onEvent(event)
    }
}

private final class Reports: Sendable {
    private let reports = Mutex<[ModuleReport]>([])
    /// What was reported, deliveries left out.
    var all: [ModuleReport] {
        reports.withLock { $0 }.filter {
            if case .delivered = $0 { return false }
            return true
        }
    }
    /// The deliveries, as "event module".
    var deliveries: [String] {
        reports.withLock { $0 }.compactMap {
            if case .delivered(let module, let event) = $0 { return "\(event) \(module)" }
            return nil
        }
    }
    func callAsFunction(_ report: ModuleReport) { reports.withLock { $0.append(report) } }
}

@Suite struct ModuleManagerTests {
    @Test func ordersByDependenciesThenPriorityThenName() async throws {
        let log = Recorder()
        let modules: [any AppModule] = [
            TestModule(name: "order", dependencies: ["user", "cart"], log: log),
            TestModule(name: "cart", log: log),
            TestModule(name: "user", priority: 5, log: log),
            TestModule(name: "analytics", priority: 100, log: log),
            TestModule(name: "home", events: [], log: log),
        ]
        let reports = Reports()
        let manager = try ModuleManager(modules: modules, context: ModuleContext(router: Router()), report: reports.callAsFunction)
        #expect(manager.modules.map(\.name) == ["analytics", "user", "cart", "home", "order"])
        manager.registerAll()
        await manager.launch()
        await manager.send(.terminate)
        #expect(log.all.prefix(5) == ["register analytics", "register user", "register cart", "register home", "register order"])
        #expect(log.all.dropFirst(5).prefix(4) == ["launch analytics", "launch user", "launch cart", "launch order"], "home declares no events")
        #expect(log.all.suffix(4) == ["terminate order", "terminate cart", "terminate user", "terminate analytics"])
        #expect(reports.deliveries == log.all.dropFirst(5).map { $0 }, "each delivery is reported, for tracing")
    }

    @Test func refusesUnknownDependenciesCyclesDuplicatesAndUnknownEvents() {
        let log = Recorder()
        let context = ModuleContext(router: Router())
        #expect(throws: RouterError.unknownModuleDependency(module: "a", dependency: "zz")) {
            try ModuleManager(modules: [TestModule(name: "a", dependencies: ["zz"], log: log)], context: context)
        }
        #expect(throws: RouterError.moduleCycle(["a", "b", "c", "a"])) {
            try ModuleManager(
                modules: [
                    TestModule(name: "a", dependencies: ["b"], log: log),
                    TestModule(name: "b", dependencies: ["c"], log: log),
                    TestModule(name: "c", dependencies: ["a"], log: log),
                    TestModule(name: "d", log: log),
                ], context: context)
        }
        #expect(throws: RouterError.duplicateModule("a")) {
            try ModuleManager(modules: [TestModule(name: "a", log: log), TestModule(name: "a", log: log)], context: context)
        }
        let typo = #expect(throws: RouterError.self) {
            try ModuleManager(modules: [TestModule(name: "cache", events: ["memory-warnng"], log: log)], context: context)
        }
        #expect(typo?.code == .unknownLifecycleEvent)
        #expect(typo?.description.contains("Module 'cache' declares the lifecycle event 'memory-warnng'") == true)
        #expect(typo?.description.contains("Did you mean 'memory-warning'?") == true, "\(typo?.description ?? "")")
        let badName = #expect(throws: RouterError.self) {
            try ModuleManager(modules: [TestModule(name: "sync", announces: ["Launch Now"], log: log)], context: context)
        }
        #expect(badName?.description.contains("announces the lifecycle event 'Launch Now'") == true)
        #expect(throws: RouterError.self) { try ModuleManager(modules: [TestModule(name: "sync", announces: ["terminate"], log: log)], context: context) }
    }

    @Test func aModuleThatFailsToRegisterIsDisabledWithWhatItRegisteredAndWhatDependsOnIt() async throws {
        let log = Recorder(), reports = Reports()
        let router = Router()
        let manager = try ModuleManager(
            modules: [
                TestModule(name: "storage", providesService: true, failsToRegister: true, log: log),
                TestModule(name: "cart", dependencies: ["storage"], log: log),
                TestModule(name: "home", log: log),
            ], context: ModuleContext(router: router), report: reports.callAsFunction)
        manager.registerAll()
        await manager.launch()
        #expect(!log.all.contains("register cart"), "a module whose dependency is down is never asked to register")
        #expect(log.all.contains("launch home"))
        #expect(!log.all.contains("launch storage") && !log.all.contains("launch cart"))
        #expect(router.routes.map(\.owner) == ["home"], "the half-registered routes are withdrawn")
        #expect(router.services.registrations.isEmpty, "the service of the module that failed is withdrawn")
        #expect(
            reports.all == [
                .disabled(
                    module: "storage", reason: "it failed to register: no database",
                    withdrawn: [RouteDescription(pattern: "app://storage/first", owner: "storage")]),
                .disabled(module: "cart", reason: "its dependency 'storage' is disabled"),
            ])
        #expect(
            manager.statuses.map(\.state) == [
                .running, .disabled(reason: "it failed to register: no database"), .disabled(reason: "its dependency 'storage' is disabled"),
            ])
        #expect(manager.statuses.map(\.name) == ["home", "storage", "cart"])
        #expect(manager.isRunning("home") && !manager.isRunning("cart") && !manager.isRunning("storage"))
    }

    @Test func aModuleThatFailsToLaunchIsDisabledAndSoAreItsDependents() async throws {
        let log = Recorder(), reports = Reports()
        let router = Router()
        let manager = try ModuleManager(
            modules: [TestModule(name: "session", failsToLaunch: true, log: log), TestModule(name: "user", dependencies: ["session"], log: log)],
            context: ModuleContext(router: router), report: reports.callAsFunction)
        manager.registerAll()
        #expect(router.routes.count == 2)
        await manager.launch()
        #expect(router.routes.isEmpty)
        #expect(!log.all.contains("launch user"), "a dependent of a module that failed to launch does not launch")
        #expect(
            reports.all.first
                == .disabled(
                    module: "session", reason: "it failed to launch: the server is down",
                    withdrawn: [RouteDescription(pattern: "app://session/first", owner: "session")]))
        await manager.send(.terminate)
        #expect(!log.all.contains("terminate session"), "a disabled module hears nothing more")
    }

    @Test func launchWorkAfterTheFirstScreenIsNotAwaited() async throws {
        let log = Recorder()
        let gate = Gate()
        let slow = TestModule(name: "sync", launchTiming: .afterFirstScreen, onEvent: { _ in await gate.wait() }, log: log)
        let manager = try ModuleManager(modules: [slow, TestModule(name: "home", log: log)], context: ModuleContext(router: Router()))
        manager.registerAll()
        await manager.launch()
        #expect(log.all.contains("launch home"), "launch returned while sync's work still runs")
        #expect(manager.statuses.first { $0.name == "sync" }?.launchTime == nil)
        await gate.open()
        await manager.finishDeferredLaunches()
        #expect(manager.statuses.first { $0.name == "sync" }?.launchTime != nil)
    }

    @Test func anIncomingURLIsRewrittenThenClaimedInBootOrder() async throws {
        let log = Recorder()
        let rewriter = TestModule(
            name: "campaigns", priority: 10, events: [.openURL],
            onEvent: { event in if case .openURL(let url) = event { url.rewrite(to: url.url.replacingOccurrences(of: "promo", with: "sale"), by: "campaigns") }
            },
            log: log)
        let claimer = TestModule(
            name: "auth", priority: 5, events: [.openURL],
            onEvent: { event in if case .openURL(let url) = event, url.url.contains("login") { url.claim(by: "auth") } }, log: log)
        let late = TestModule(name: "home", events: [.openURL], log: log)
        let manager = try ModuleManager(modules: [late, claimer, rewriter], context: ModuleContext(router: Router()))
        let incoming = IncomingURL("myapp://promo/1")
        await manager.send(.openURL(incoming))
        #expect(incoming.url == "myapp://sale/1")
        #expect(incoming.claimedBy == nil)
        #expect(log.all == ["open-url campaigns", "open-url auth", "open-url home"])
        let login = IncomingURL("myapp://login")
        await manager.send(.openURL(login))
        #expect(login.claimedBy == "auth")
        #expect(log.all.suffix(2) == ["open-url campaigns", "open-url auth"], "after a claim nobody else sees it")
    }

    @Test func anAppsOwnEventReachesTheModulesThatDeclareItAndAFailingHandlerIsReported() async throws {
        let log = Recorder(), reports = Reports()
        let values = Recorder()
        let sender = TestModule(name: "user", events: [], announces: ["user.signed-out"], log: log)
        #expect(throws: RouterError.self, "an app's own event is named after its module") {
            try ModuleManager(modules: [TestModule(name: "user", events: [], announces: ["cart.emptied"], log: log)], context: ModuleContext(router: Router()))
        }
        let listener = TestModule(
            name: "cart", events: ["user.signed-out"],
            onEvent: { event in if case .custom(_, let payload) = event { values.add(payload["user"] ?? "") } }, log: log)
        let broken = TestModule(name: "home", events: ["user.signed-out"], onEvent: { _ in throw Failure(description: "no layout") }, log: log)
        let context = ModuleContext(router: Router())
        let manager = try ModuleManager(modules: [sender, listener, broken], context: context, report: reports.callAsFunction)
        try await context.lifecycle.send("user.signed-out", ["user": "alice"])
        #expect(values.all == ["alice"])
        #expect(reports.all == [.eventFailed(module: "home", event: "user.signed-out", error: "no layout")])
        #expect(manager.isRunning("home"), "only launch failures disable")
        await #expect(throws: RouterError.self) { try await context.lifecycle.send("nobody.announces") }
        let builtIn = await #expect(throws: RouterError.self) { try await context.lifecycle.send("background") }
        #expect(builtIn?.description.contains("'background' is a built-in lifecycle event: only the App itself sends it") == true)
    }

    @Test func anEventOfAComponentLeftOutOfTheAppMayBeDeclared() throws {
        let log = Recorder()
        let listener = TestModule(name: "cart", events: ["user.signed-out"], log: log)
        #expect(throws: RouterError.self) { try ModuleManager(modules: [listener], context: ModuleContext(router: Router())) }
        _ = try ModuleManager(modules: [listener], context: ModuleContext(router: Router()), absent: ["user"])
    }
}

/// Holds a task until opened.
private actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
