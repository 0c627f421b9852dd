import Foundation
import Testing
import TestSupport

/// Each app's generated wiring creates each implementation's one public module: no hand-written list.
@Suite struct AppWiringTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    @Test func theWiringCreatesEachImplementationsOnePublicModuleAndRefusesTwo() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.declareApps("  reading:\n    components: [reader]\n")
        let reader = "Packages/Business/Reader/Sources/Reader/"
        try scratch.write(reader + "ReaderAppModule.swift", "public struct ReaderAppModule: AppModule {\n    public init() {}\n}\n")
        try scratch.write(reader + "Helper.swift", "struct HelperModule: AppModule {}\n")
        let synced = try tool(scratch, "sync")
        #expect(synced.status == 0, "\(synced.error)")
        let wiring = try scratch.read("App/reading/GeneratedApp.swift")
        #expect(wiring.contains("                    ReaderAppModule(),\n"))
        #expect(!wiring.contains("HelperModule"), "an internal module is the component's own business")
        #expect(try tool(scratch, "sync", "--check").status == 0)

        try scratch.write(reader + "Second.swift", "public final class SecondModule: AppModule {}\n")
        let before = try scratch.snapshot()
        let refused = try tool(scratch, "sync")
        #expect(refused.status == 2)
        #expect(refused.error.contains("'reader' declares 2 types conforming to AppModule (ReaderAppModule, SecondModule)"), "\(refused.error)")
        #expect(try scratch.snapshot() == before)
        #expect(try tool(scratch, "sync", "--check").status != 0)
    }
}
