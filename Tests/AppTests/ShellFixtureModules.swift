import Foundation
import Router
import ScreenKit
import Shell
import Synchronization

/// A module of the fixture app beyond notes: it registers `patterns`, which its app also declares (as the
/// generated definition does from the component's routes).
protocol FixtureModule: AppModule {
    /// The route patterns it registers: what answers "temporarily unavailable" when it is disabled.
    var patterns: [String] { get }
}

extension ShellFixture {
    /// Reminders of notes: it needs notes (and is disabled with it), its one route is public, and it hears
    /// the way down and the journal's own event (so an app with reminders has the journal too).
    struct RemindersModule: FixtureModule {
        let name = "reminders"
        let patterns = ["myapp://reminders"]
        var dependencies: [String] { ["notes"] }
        var events: Set<LifecycleEvent.Kind> { [.launch, .memoryWarning, .background, .terminate, "journal.synced"] }

        func register(in context: ModuleContext) throws {
            try context.router.register("myapp://reminders", owner: name, options: RouteOptions(isPublic: true)) { _ in
                Screen(title: "Reminders", elements: [.text("Nothing is due.")])
            }
        }
    }

    /// A journal that registers no route, boots first (a higher priority), hears every built-in event but
    /// `open-url`, and announces an event of its own.
    struct JournalModule: FixtureModule {
        let name = "journal"
        let patterns: [String] = []
        var priority: Int { 10 }
        var events: Set<LifecycleEvent.Kind> { [.launch, .foreground, .notification, .memoryWarning, .background, .terminate] }
        var announces: Set<LifecycleEvent.Kind> { ["journal.synced"] }

        func register(in context: ModuleContext) throws {}
    }

    /// An archive whose index is missing: it registers its route, then fails to register.
    struct ArchiveModule: FixtureModule {
        struct IndexMissing: Error, CustomStringConvertible {
            var description: String { "the archive index is missing" }
        }

        let name = "archive"
        let patterns = ["myapp://archive"]

        func register(in context: ModuleContext) throws {
            try context.router.register("myapp://archive", owner: name) { _ in Screen(title: "Archive") }
            throw IndexMissing()
        }
    }

    /// A banner that shows the remote document `notes-banner` (`{"text": ..., "sequence": n}`), read through the
    /// shell's `RemoteDocuments` service each time its page opens.
    struct BannerModule: FixtureModule {
        let name = "banner"
        let patterns = ["myapp://banner"]

        func register(in context: ModuleContext) throws {
            let services = context.services
            try context.router.register("myapp://banner", owner: name) { _ in
                var screen = Screen(title: "Banner")
                guard let (json, source) = try services.optional((any RemoteDocuments).self)?.current("notes-banner") else {
                    screen.text("No banner is served.")
                    return screen
                }
                let text = (try? JSONSerialization.jsonObject(with: json) as? [String: Any])?["text"] as? String
                screen.text("Banner: \(text ?? "(no text)") from \(source)")
                return screen
            }
        }
    }

    /// The fixture app with `modules` besides notes, their routes declared.
    static func definition(adding modules: [any FixtureModule]) -> AppDefinition {
        var definition = Self.definition
        let notes = definition.modules
        definition.modules = { notes() + modules.map { $0 as any AppModule } }
        for module in modules { definition.routes[module.name] = module.patterns }
        return definition
    }
}

/// The fixture app run in this process as a user runs the App: arguments, lines of input, settings, and a
/// fresh folder of its own (the data folder and the files a test writes), deleted by `remove()`.
struct InProcessApp: Sendable {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    var definition: AppDefinition
    /// Its settings besides the data folder.
    var environment: [String: String] = [:]
    /// Everything of this app's runs: `data` is its data folder.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shell-\(UUID().uuidString)")

    init(_ definition: AppDefinition = ShellFixture.definition) {
        self.definition = definition
    }

    /// Runs `arguments`; an interactive run reads `input` a line at a time, calling `reading` with each
    /// line before the App gets it (to change a file, a server, between lines).
    func run(_ arguments: [String], input: [String] = [], reading: @escaping @Sendable (String) -> Void = { _ in }) async -> Result {
        let output = Recorder(), errors = Recorder()
        let lines = Mutex(input[...])
        var environment = self.environment
        environment["NOTES_DATA_DIR"] = folder.appendingPathComponent("data").path
        let runner = AppRunner(
            app: definition, output: { output.append($0) }, errorOutput: { errors.append($0) },
            readLine: {
                let line = lines.withLock { $0.popFirst() }
                if let line { reading(line) }
                return line
            }, environment: environment)
        let status = await runner.run(arguments)
        return Result(status: status, output: output.text, errors: errors.text)
    }

    /// The first line `sign` prints for `url` (with `options` such as `--once`), or the empty string.
    func sign(_ url: String, _ options: [String] = []) async -> String {
        await run(["sign", url] + options).output.trimmingCharacters(in: .newlines)
    }

    /// This app trusting the shared test key for external links and signing with it.
    func signingLinks() throws -> InProcessApp {
        let key = try TestSigningKey.shared.get()
        var app = self
        app.environment["NOTES_LINK_KEYS"] = key.publicKey
        app.environment["NOTES_LINK_SIGNING_KEY"] = key.file.path
        return app
    }

    /// Writes `text` to the file `name` in the app's folder and returns it.
    func write(_ text: String, to name: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Deletes the app's folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
