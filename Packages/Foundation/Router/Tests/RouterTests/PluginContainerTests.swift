import Router
import Synchronization
import Testing

/// A point whose plugins say a word.
private enum Words: ExtensionPoint {
    static let id: ExtensionPointID = "words-interface/words"
    typealias Plugin = any WordPlugin
}

private protocol WordPlugin: ContainerPlugin {
    func word() throws -> String?
}

private struct Said: AppEvent { var text: String }

/// Records what the plugins of every container heard, in order.
private final class Journal: Sendable {
    let lines = Mutex<[String]>([])
    func note(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private final class Speaker: WordPlugin {
    let name: String
    let settings: PluginSettings
    let journal: Journal
    let bus: Mutex<EventBus?> = Mutex(nil)
    init(_ name: String, _ context: PluginContext, journal: Journal) {
        self.name = name
        self.settings = context.settings
        self.journal = journal
    }
    func attach(_ context: PluginContext) throws {
        bus.withLock { $0 = context.events }
        journal.note("\(name) attach")
        context.events.subscribe(self, to: Said.self) { speaker, said in speaker.journal.note("\(speaker.name) heard \(said.text)") }
    }
    func containerWillAppear() async { journal.note("\(name) appear") }
    func containerDidDisappear() async { journal.note("\(name) disappear") }
    func detach() { journal.note("\(name) detach") }
    func word() throws -> String? {
        if settings.bool("fail", default: false) { throw Broken() }
        return settings.string("word", default: name)
    }
    struct Broken: Error, CustomStringConvertible { var description: String { "broken on purpose" } }
}

/// The test's journal travels in the services, as a real plugin's dependencies do.
private protocol JournalService: Sendable { var journal: Journal { get } }
private struct JournalBox: JournalService { let journal: Journal }

private enum Alpha: PluginDefinition {
    typealias Point = Words
    static let id = "alpha"
    static let settings: PluginSchema = ["word": .string, "fail": .bool, "count": .int, "weight": .number]
    static func make(_ context: PluginContext) throws -> any WordPlugin {
        Speaker(id, context, journal: try context.services.resolve((any JournalService).self).journal)
    }
}

private enum Beta: PluginDefinition {
    typealias Point = Words
    static let id = "beta"
    static func make(_ context: PluginContext) throws -> any WordPlugin {
        Speaker(id, context, journal: try context.services.resolve((any JournalService).self).journal)
    }
}

private enum Gamma: PluginDefinition {
    typealias Point = Words
    static let id = "gamma"
    static func make(_ context: PluginContext) throws -> any WordPlugin { throw Speaker.Broken() }
}

private func router(_ declarations: [PluginDeclaration], journal: Journal = Journal(), failures: Journal = Journal()) throws -> Router {
    let router = Router()
    try router.services.register((any JournalService).self, owner: "test", instance: JournalBox(journal: journal))
    try router.plugins.install(points: [Words.self], definitions: [Alpha.self, Beta.self, Gamma.self], declarations: declarations)
    router.plugins.setFailureReporter { failures.note($0.description) }
    return router
}

private func entry(_ plugin: String, enabled: Bool = true, _ settings: [String: PluginSettingValue] = [:], line: Int = 1) -> PluginDeclaration {
    PluginDeclaration(point: Words.id, plugin: plugin, isEnabled: enabled, settings: settings, source: "components.yaml:\(line):7")
}

private func words(_ container: PluginContainer<Words>) async -> [String] {
    await container.contributions { try $0.word() }
}

@Test func orderAndEnablementComeFromTheDeclaration() async throws {
    let forward = try router([entry("alpha"), entry("beta")])
    #expect(await words(forward.plugins.container(Words.self, router: forward)) == ["alpha", "beta"])
    let backward = try router([entry("beta"), entry("alpha")])
    #expect(await words(backward.plugins.container(Words.self, router: backward)) == ["beta", "alpha"])
    let disabled = try router([entry("beta"), entry("alpha", enabled: false)])
    #expect(await words(disabled.plugins.container(Words.self, router: disabled)) == ["beta"])
    #expect(disabled.plugins.modules().map(\.name) == ["beta"], "a disabled plugin registers nothing app-wide either")
}

@Test func settingsReachThePluginsContext() async throws {
    let router = try router([entry("alpha", ["word": .string("hello"), "count": .int(2), "weight": .int(3)])])
    #expect(await words(router.plugins.container(Words.self, router: router)) == ["hello"])
}

@Test func aThrowingPluginIsLeftOutWithItsReasonAndTheRestContribute() async throws {
    let failures = Journal()
    let router = try router([entry("gamma"), entry("alpha", ["fail": .bool(true)]), entry("beta")], failures: failures)
    let container = router.plugins.container(Words.self, router: router)
    #expect(container.members.map(\.id) == ["alpha", "beta"])
    #expect(await words(container) == ["beta"])
    #expect(container.failures.map(\.plugin) == ["gamma", "alpha"])
    #expect(
        failures.all == [
            "plugin 'gamma' of words-interface/words failed while attaching and is left out: broken on purpose",
            "plugin 'alpha' of words-interface/words failed while contributing and is left out: broken on purpose",
        ])
}

@Test func theLifecycleRunsInOrderAndDetachOnceLastFirst() async throws {
    let journal = Journal()
    let router = try router([entry("alpha"), entry("beta")], journal: journal)
    let container = router.plugins.container(Words.self, router: router)
    await container.appear()
    await container.disappear()
    container.detach()
    container.detach()
    #expect(
        journal.all == [
            "alpha attach", "beta attach", "alpha appear", "beta appear", "alpha disappear", "beta disappear", "beta detach", "alpha detach",
        ])
}

@Test func aContainersBusReachesItsOwnPluginsOnlyUnlessForwarded() async throws {
    let journal = Journal()
    let router = try router([entry("alpha")], journal: journal)
    let first = router.plugins.container(Words.self, router: router)
    let second = router.plugins.container(Words.self, router: router)
    first.events.publish(Said(text: "one"))
    router.events.publish(Said(text: "app"))
    #expect(journal.all.filter { $0.contains("heard") } == ["alpha heard one"])
    second.forward(Said.self, from: router.events)
    router.events.publish(Said(text: "forwarded"))
    #expect(journal.all.filter { $0.contains("heard") } == ["alpha heard one", "alpha heard forwarded"])
}

@Test func everyProblemOfTheDeclarationIsReportedWithItsSource() throws {
    let router = Router()
    let declarations = [
        entry("alpha", line: 10),
        entry("alpha", line: 11),
        entry("delta", line: 12),
        PluginDeclaration(point: "words-interface/wrds", plugin: "beta", source: "components.yaml:13:7"),
        entry("alpha", ["word": .int(3), "colour": .string("red")], line: 14),
    ]
    let error = try #require(throws: PluginConfigurationError.self) {
        try router.plugins.install(points: [Words.self], definitions: [Alpha.self, Beta.self], declarations: declarations)
    }
    let text = error.description
    #expect(text.contains("components.yaml:11:7: error: plugin 'alpha' is listed twice under 'words-interface/words'"))
    #expect(text.contains("components.yaml:12:7: error: unknown plugin 'delta'"))
    #expect(text.contains("components.yaml:13:7: error: unknown extension point 'words-interface/wrds'. Fix: did you mean 'words-interface/words'?"))
    #expect(text.contains("components.yaml:14:7: error: setting 'word' of plugin 'alpha' must be string, not int 3"))
    #expect(text.contains("components.yaml:14:7: error: plugin 'alpha' has no setting 'colour'"))
    #expect(router.plugins.declarations(of: Words.id).isEmpty, "nothing is installed after a refusal")
    let orphan = try #require(throws: PluginConfigurationError.self) {
        try Router().plugins.install(points: [], definitions: [Beta.self], declarations: [])
    }
    #expect(orphan.description.contains("beta: error: plugin 'beta' extends 'words-interface/words', which no extension point of the App declares"))
}
