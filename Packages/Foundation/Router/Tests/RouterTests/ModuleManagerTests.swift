import Testing
import Router

private struct TestModule: AppModule {
    let name: String
    var priority: Int = 0
    var dependencies: [String] = []
    let log: Recorder

    func register(in context: ModuleContext) throws { log.add("register \(name)") }
    func handle(_ event: LifecycleEvent, in context: ModuleContext) async { log.add("\(event) \(name)") }
}

@Suite struct ModuleManagerTests {
    @Test func ordersByDependenciesThenPriorityThenName() async throws {
        let log = Recorder()
        let modules: [any AppModule] = [
            TestModule(name: "order", dependencies: ["user", "cart"], log: log),
            TestModule(name: "cart", log: log),
            TestModule(name: "user", priority: 5, log: log),
            TestModule(name: "analytics", priority: 100, log: log),
            TestModule(name: "home", log: log),
        ]
        let manager = try ModuleManager(modules: modules, context: ModuleContext(router: Router()))
        #expect(manager.modules.map(\.name) == ["analytics", "user", "cart", "home", "order"])
        try manager.registerAll()
        await manager.send(.launch)
        await manager.send(.terminate)
        #expect(log.all.prefix(5) == ["register analytics", "register user", "register cart", "register home", "register order"])
        #expect(log.all.suffix(5) == ["terminate order", "terminate home", "terminate cart", "terminate user", "terminate analytics"])
    }

    @Test func refusesUnknownDependenciesCyclesAndDuplicates() {
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
    }
}
