import Foundation
import Router
import ScreenKit
import Shell
import Synchronization
import Testing

/// An app of the shell's own, so these tests hold whatever features the workspace has: one module with
/// two routes, under the prefix `NOTES` and the data folder `notes` (ShellFixtureModules.swift adds more).
enum ShellFixture {
    /// The list of notes, internal; a note's page, public (a link from outside may open it).
    struct NotesModule: AppModule {
        let name = "notes"

        func register(in context: ModuleContext) throws {
            try context.router.register("myapp://notes", owner: name) { _ in Screen(title: "Notes", elements: [.text("Your notes.")]) }
            try context.router.register("myapp://notes/<int:id>", owner: name, options: RouteOptions(isPublic: true)) { request in
                Screen(title: "Note \(request.pathParameters["id"] ?? "?")", elements: [.text("One of your notes.")])
            }
        }
    }

    static let definition = AppDefinition(
        name: "notes", product: "Notes", modules: { [NotesModule()] }, plugins: AppPlugins(points: [], definitions: [], declarations: []),
        hostAPI: [:], absent: [], settings: [:], degradeTable: nil, start: "myapp://notes", scheme: "myapp", settingsPrefix: "NOTES",
        dataFolder: "notes", routes: ["notes": ["myapp://notes", "myapp://notes/<int:id>"]])
}

/// The shell reads its settings under the app's prefix and keeps its data in the app's data folder, both
/// from components.yaml: a workspace of another name gets variables and a folder of its own.
@Suite struct ShellSettingsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shell-settings-\(UUID().uuidString)")

    private func run(_ arguments: [String], _ environment: [String: String]) async -> (status: Int32, output: String, errors: String) {
        let definition = ShellFixture.definition
        let output = Recorder(), errors = Recorder()
        let runner = AppRunner(
            app: definition, output: { output.append($0) }, errorOutput: { errors.append($0) }, readLine: { nil }, environment: environment)
        let status = await runner.run(arguments)
        return (status, output.text, errors.text)
    }

    @Test func everySettingIsReadUnderTheAppsPrefixOnly() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let refused = await run(["status"], ["NOTES_LOG": "loud", "NOTES_DATA_DIR": data])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("NOTES_LOG is 'loud'; it takes a level"), "\(refused.errors)")
        let other = await run(["status"], ["MYAPP_LOG": "loud", "NOTES_DATA_DIR": data, "MYAPP_FAIL_MODULE": "nothing"])
        #expect(other.status == 0, "another prefix's variables are not the app's: \(other.errors)")
        #expect(FileManager.default.fileExists(atPath: data + "/notes.sqlite"))
        let failing = await run(["status"], ["NOTES_FAIL_MODULE": "nothing", "NOTES_DATA_DIR": data])
        #expect(failing.errors.contains("NOTES_FAIL_MODULE names 'nothing', which is no module of this app"), "\(failing.errors)")
        let help = await run(["help"], [:])
        for variable in ["NOTES_DATA_DIR", "NOTES_LOG", "NOTES_PLUGIN_FEED", "NOTES_DEGRADE_TABLE_URL"] {
            #expect(help.output.contains(variable), "\(variable)")
        }
        #expect(!help.output.contains("MYAPP_"))
    }

    @Test func theDataFolderIsTheAppsOwnUnderTheUsersDataHome() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appendingPathComponent("xdg").path
        #expect(await run(["status"], ["XDG_DATA_HOME": home]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/notes/notes.sqlite"))
        let unwritable = await run(["status"], ["NOTES_DATA_DIR": "/proc/no-such-folder"])
        #expect(unwritable.status == 2)
        #expect(unwritable.errors.contains("NOTES_DATA_DIR names the folder."), "\(unwritable.errors)")
    }
}

/// An app without a start route (components.yaml names none) opens the shell's list of its routes; the
/// shell alone, with no module, still starts.
@Suite struct StartScreenTests {
    private func firstScreen(_ definition: AppDefinition) async -> (status: Int32, output: String) {
        let output = Recorder()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let runner = AppRunner(
            app: definition, output: { output.append($0) }, errorOutput: { _ in }, readLine: { nil }, environment: ["NOTES_DATA_DIR": data.path])
        return (await runner.run([]), output.text)
    }

    @Test func withoutAStartTheAppOpensAListOfItsRoutes() async throws {
        var definition = ShellFixture.definition
        definition.start = nil
        let shown = await firstScreen(definition)
        #expect(shown.status == 0)
        #expect(shown.output.contains("== App '\(definition.name)' =="), "\(shown.output)")
        let plain = definition.routes.values.joined().filter { !$0.contains("<") && !$0.split(separator: "/").dropFirst().contains { $0.hasPrefix(":") } }
        for route in plain { #expect(shown.output.contains(route), "\(route)") }
        #expect(!shown.output.contains("Home"), "no link to a start the app does not have")
    }

    @Test func theShellAloneStarts() async throws {
        var definition = ShellFixture.definition
        definition.start = nil
        definition.modules = { [] }
        definition.plugins = AppPlugins(points: [], definitions: [], declarations: [])
        definition.routes = [:]
        let shown = await firstScreen(definition)
        #expect(shown.status == 0)
        #expect(shown.output.contains("It has no route yet: add a feature with 'componentctl new'."), "\(shown.output)")
    }
}

/// Collects what a runner writes.
final class Recorder: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ text: String) { lines.withLock { $0.append(text) } }
    var text: String { lines.withLock { $0.joined() } }
}
