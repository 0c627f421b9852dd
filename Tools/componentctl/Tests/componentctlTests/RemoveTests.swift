import Foundation
import Testing
import TestSupport

/// `componentctl remove` on the fixture: what it refuses, what it edits, and that it never loses a file.
@Suite struct RemoveTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    /// The fixture with its App no longer using the reader, committed.
    private func appWithoutReader() throws -> Scratch {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("App/main.swift", "import Shelf\n\nprint(ShelfModule.page().text)\n")
        try scratch.git("commit", "-qam", "the App without the reader")
        return scratch
    }

    @Test func refusesWhileSomethingStillUsesTheComponent() throws {
        let scratch = try Scratch.fixtureRepository()
        let before = try scratch.listing()

        let dependents = try tool(scratch, "remove", "reader-interface")
        #expect(dependents.status == 2)
        #expect(
            dependents.error == "error: Cannot remove 'reader-interface': reader, shelf depend on it. Remove those dependencies first, "
                + "or remove them together: componentctl remove reader-interface reader shelf.\n")

        let imported = try tool(scratch, "remove", "reader")
        #expect(imported.status == 2)
        #expect(imported.error.contains("these files still import it:\n  App/main.swift:1: import Reader\n"))

        #expect(try tool(scratch, "remove", "readr").error.contains("Did you mean 'reader'?"))
        #expect(try tool(scratch, "remove").status == 2)
        #expect(try scratch.listing() == before)
        #expect(try scratch.git("status", "--porcelain").isEmpty)
    }

    @Test func aFeatureGoesOnlyWithThePluginsThatExtendIt() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        let before = try scratch.listing()
        let refused = try tool(scratch, "remove", "shelf")
        #expect(refused.status == 2)
        #expect(
            refused.error.contains("Cannot remove 'shelf': the plugins ribbon, stamp extend its pages")
                && refused.error.contains("Remove them together: componentctl remove shelf ribbon stamp."), "\(refused.error)")
        #expect(try scratch.listing() == before)
    }

    @Test func removesTheEntryTheManifestLineAndTheFolder() throws {
        let scratch = try appWithoutReader()
        let yaml = try scratch.read("components.yaml")
        let result = try tool(scratch, "remove", "reader")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Removed reader (edited components.yaml, Package.swift)."))
        #expect(
            try scratch.read("components.yaml")
                == yaml.replacingOccurrences(
                    of: "  reader:\n    path: Packages/Business/Reader\n    layer: business\n    interface: reader-interface\n    version: 1.0.0\n", with: ""))
        #expect(try !scratch.read("Package.swift").contains("Reader"))
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("Packages/Business/Reader").path))
        #expect(try tool(scratch, "check-layers").output.hasPrefix("check-layers: clean (8 components"))
        // What is left still builds as the integrated App would see it: the manifest is valid.
        #expect(try tool(scratch, "sync", "--check").status == 0)
    }

    @Test func aNameGivenTwiceIsRemovedOnce() throws {
        let scratch = try appWithoutReader()
        let yaml = try scratch.read("components.yaml")
        #expect(try tool(scratch, "remove", "reader", "reader").status == 0)
        #expect(
            try scratch.read("components.yaml")
                == yaml.replacingOccurrences(
                    of: "  reader:\n    path: Packages/Business/Reader\n    layer: business\n    interface: reader-interface\n    version: 1.0.0\n", with: ""))
    }

    @Test func theRootManifestOutsideItsBlockCountsAsAUse() throws {
        let scratch = try appWithoutReader()
        try scratch.replace(
            in: "Package.swift", "[.product(name: \"Shelf\", package: \"Shelf\")]",
            with: "[.product(name: \"Shelf\", package: \"Shelf\"), .product(name: \"Reader\", package: \"Reader\")]")
        try scratch.git("commit", "-qam", "tests use the reader")
        let refused = try tool(scratch, "remove", "reader")
        #expect(refused.status == 2)
        #expect(refused.error.contains("the root package uses it outside its generated block:\n  Package.swift:"))
        #expect(try scratch.git("status", "--porcelain").isEmpty)
    }

    @Test func neverDeletesWhatGitCannotGiveBack() throws {
        let scratch = try appWithoutReader()
        try scratch.write("Packages/Business/Reader/NOTES.md", "mine\n")
        try scratch.write("Packages/Business/Reader/.build-notes/n.txt", "mine too\n")
        try scratch.write("Packages/Business/Reader/.build/debug/x", "build output\n")
        let before = try scratch.listing()
        let refused = try tool(scratch, "remove", "reader")
        #expect(refused.status == 2)
        #expect(refused.error.contains("  Packages/Business/Reader/NOTES.md\n"))
        #expect(refused.error.contains("  Packages/Business/Reader/.build-notes/"))
        #expect(!refused.error.contains(".build/"))
        #expect(try scratch.listing() == before)

        let kept = try tool(scratch, "remove", "reader", "--keep-files")
        #expect(kept.status == 0, "\(kept.error)")
        #expect(kept.output.contains("Their folders are still on disk: Packages/Business/Reader."))
        #expect(try scratch.read("Packages/Business/Reader/NOTES.md") == "mine\n")
        #expect(try !scratch.read("components.yaml").contains("  reader:\n"))
    }

    @Test func componentsRemovedTogetherAndTheAppsGeneratedWiring() throws {
        let scratch = try Scratch.fixtureRepository()
        // An app's generated wiring creates the module each of its implementations declares.
        try scratch.declareApps("  reading:\n    components: [shelf, reader]\n")
        try scratch.write(
            "Packages/Business/Reader/Sources/Reader/ReaderAppModule.swift", "public struct ReaderAppModule: AppModule {\n    public init() {}\n}\n")
        #expect(try tool(scratch, "sync").status == 0)
        let wiring = try scratch.read("App/reading/GeneratedApp.swift")
        #expect(wiring.contains("import Reader\n"))
        #expect(wiring.contains("                    ReaderAppModule(),\n"))
        try scratch.write("App/main.swift", "import Shelf\n\nprint(ShelfModule.page().text)\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "generated wiring")
        let result = try tool(scratch, "remove", "reader", "reader-interface", "shelf", "shelf-interface")
        #expect(result.status == 2) // the App still imports Shelf
        #expect(result.error.contains("App/main.swift:1: import Shelf"))
        #expect(!result.error.contains("GeneratedApp.swift"))

        let together = try tool(scratch, "remove", "reader", "reader-interface")
        #expect(together.status == 2) // shelf depends on reader-interface
        try scratch.replace(in: "Packages/Business/Shelf/Package.swift", "        .package(path: \"../../Interfaces/ReaderInterface\"),\n", with: "")
        try scratch.replace(in: "Packages/Business/Shelf/Package.swift", "\"ReaderInterface\", ", with: "")
        try scratch.replace(in: "Packages/Business/Shelf/Sources/Shelf/ShelfModule.swift", "import ReaderInterface\n", with: "")
        try scratch.replace(
            in: "Packages/Business/Shelf/Package.swift", ", .product(name: \"ReaderInterfaceTestSupport\", package: \"ReaderInterface\")", with: "")
        try scratch.write("Packages/Business/Shelf/Tests/ShelfTests/ShelfTests.swift", "import Shelf\nimport Testing\n")
        try scratch.git("commit", "-qam", "shelf without the reader")
        let removed = try tool(scratch, "remove", "reader", "reader-interface")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output.contains("The app reading no longer contains them."))
        let rewired = try scratch.read("App/reading/GeneratedApp.swift")
        #expect(!rewired.contains("Reader"))
        #expect(rewired.contains("            modules: {\n                [\n                ]\n            },"))
        #expect(try scratch.read("components.yaml").hasSuffix("\napps:\n  reading:\n    components: [shelf]\n"))
        #expect(try tool(scratch, "sync", "--check").status == 0)
        #expect(try tool(scratch, "check-layers").output.hasPrefix("check-layers: clean (7 components"))
    }
}
