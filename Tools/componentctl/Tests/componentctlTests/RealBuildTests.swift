import Foundation
import Testing
import TestSupport

extension Tag {
    /// A test that builds real Swift packages: minutes each. `make test` runs them in a step of their own.
    @Tag static var buildsPackages: Self
}

/// Whether the tests that build real packages run: `COMPONENTCTL_BUILD_TESTS=1` (their own step of `make test`),
/// so `swift test --package-path Tools/componentctl` alone stays quick for someone changing the tool.
let buildTestsEnabled = ProcessInfo.processInfo.environment["COMPONENTCTL_BUILD_TESTS"] == "1"

/// Builds and tests real component packages through the built binary.
@Suite(.tags(.buildsPackages), .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct RealBuildTests {
    /// Whether a `swift test` log shows a run that passed (whatever number of tests the component has).
    static func passed(_ log: String) -> Bool {
        log.split(separator: "\n").contains { $0.contains("Test run with") && $0.contains(" passed after ") }
    }

    private func tool(_ scratch: Scratch, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path], environment: environment)
    }

    @Test func standaloneBuildIsReal() throws {
        let scratch = try Scratch.fixtureRepository()
        let result = try tool(scratch, ["test", "values"])
        #expect(result.status == 0, "\(result.output)")
        #expect(try Self.passed(scratch.read(".build/componentctl-logs/values-test.log")))
        // Each package in a folder of its own gives the same results.
        let separate = try tool(scratch, ["test", "values", "kit", "--scratch", "package"])
        #expect(separate.status == 0, "\(separate.output)")
        #expect(try Self.passed(scratch.read(".build/componentctl-logs/kit-test.log")))
    }

    /// On a copy of the live workspace, since the scaffold builds on its `router` and `screen-kit`: what must
    /// hold for any workspace that has them, whatever its own components are (names are chosen free).
    @Test func newScaffoldsAComponentThatPassesCheckLayersAndTestsAlone() throws {
        let scratch = try Scratch.sampleRepository()
        let existing = Set(try scratch.load().components.map(\.name))
        let free = ["Wishlist", "Reviews", "Coupons", "Loyalty", "Giftcards"].filter { !existing.contains($0.lowercased()) }
        let name = try #require(free.first), core = try #require(free.last), kebab = name.lowercased()
        let app = try scratch.load().apps.first
        let created = try tool(scratch, ["new", name, "--layer", "business"] + (app.map { ["--app", $0.name] } ?? []))
        #expect(created.status == 0, "\(created.error)")
        #expect(try tool(scratch, ["check-layers"]).output.hasPrefix("check-layers: clean (\(existing.count + 2) components"))
        let yaml = try scratch.read("components.yaml")
        // After the last component (a `plugins:` section may follow).
        #expect(
            yaml.contains(
                "  \(kebab):\n    path: Packages/Business/\(name)\n    layer: business\n    interface: \(kebab)-interface\n    version: 0.1.0\n"
                    + "  \(kebab)-interface:\n    path: Packages/Interfaces/\(name)Interface\n    layer: business\n    kind: interface\n    version: 0.1.0\n"))
        if let app {
            #expect(try scratch.read("Package.swift").contains(".package(path: \"Packages/Business/\(name)\"),\n]"))
            #expect(created.output.contains("It is in the app \(app.name) (their wiring is regenerated)."))
            #expect(try scratch.read("\(app.folder)/GeneratedApp.swift").contains("import \(name)\n"))
            #expect(try scratch.read("\(app.folder)/GeneratedApp.swift").contains("                    \(name)Module(),\n"))
            #expect(try tool(scratch, ["sync", "--check"]).status == 0, "the staged module is the one the sources declare")
        }
        let tested = try tool(scratch, ["test", kebab, "\(kebab)-interface"])
        #expect(tested.status == 0, "\(tested.output)")

        let state = try scratch.snapshot()
        #expect(try tool(scratch, ["new", name.uppercased(), "--layer", "business"]).status == 2) // the same folder name to SwiftPM
        #expect(try tool(scratch, ["new", core, "--layer", "middle"]).status == 2)
        #expect(try tool(scratch, ["new", core.lowercased(), "--layer", "core"]).status == 2)
        #expect(try scratch.snapshot() == state)
        #expect(try tool(scratch, ["new", core, "--layer", "core"]).output.hasPrefix("Created \(core.lowercased()) at Packages/Core/\(core)."))
    }

    @Test func aPackWhoseReleaseDoesNotBuildNamesTheFilesAsTheyAreAtTheTag() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addRuntimePlugin(
            "Glitter",
            source: """
                // A release that does not compile.
                let broken: Int = "not a number"

                func wire(_ router: Router) throws { try router.register("app://glitter/:name") { _ in nil } }

                @_cdecl("glitter_plugin_entry")
                public func glitterPluginEntry() -> UnsafeMutableRawPointer? { nil }

                """)
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, ["release", "glitter", "1.0.1"]).status == 0)
        let key = scratch.root.deletingLastPathComponent().appendingPathComponent("signing.key")
        #expect(try ToolProcess.run(["plugin", "keygen", "--key", key.path]).status == 0)
        let pack = try tool(scratch, ["plugin", "pack", "glitter", "1.0.1", "--key", key.path])
        #expect(pack.status == 4)
        #expect(pack.error.contains("Packages/Plugins/Glitter/Sources/Glitter/Glitter.swift:2:"), "\(pack.error)")
        #expect(pack.error.contains("git show glitter@1.0.1:Packages/Plugins/Glitter/..."))
        #expect(!pack.error.contains(".pack-"), "the build's folder is gone: no path names it")
    }

}
