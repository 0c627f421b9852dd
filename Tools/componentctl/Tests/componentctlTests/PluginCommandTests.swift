import Foundation
import Testing
import TestSupport

/// The plugin commands on the plugin fixture, through the built binary: list, graph, the generated
/// wiring that sync keeps, and `new --plugin` / `remove` as inverses.
@Suite struct PluginCommandTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    @Test func listShowsWhatEachPluginExtends() throws {
        let scratch = try Scratch.pluginFixture()
        let text = try tool(scratch, "list").output
        #expect(text.contains("ribbon            business    plugin of shelf-interface/badges  Packages/Plugins/Ribbon"))
        let json = try tool(scratch, "list", "--format", "json").output
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["name"] as? String == "stamp" }?["extends"] as? String == "shelf-interface/badges")
        #expect(rows.first { $0["name"] as? String == "shelf" }?["extends"] is NSNull)
    }

    @Test func graphAttachesPluginsToTheirExtensionPoint() throws {
        let scratch = try Scratch.pluginFixture()
        let dot = try tool(scratch, "graph").output
        #expect(dot.contains("\"shelf-interface/badges\" [shape=cds"))
        #expect(dot.contains("\"shelf-interface/badges\" -> \"shelf-interface\" [style=dotted"))
        #expect(dot.contains("\"ribbon\" -> \"shelf-interface/badges\" [style=dashed, color=\"#3355aa\", label=\"extends\"];"))
        let mermaid = try tool(scratch, "graph", "--format", "mermaid").output
        #expect(mermaid.contains("stamp -. extends .-> shelf_interface__badges"))
    }

    @Test func syncWritesTheWiringFromTheDeclarationAndCheckNoticesAStaleOne() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        let stale = try tool(scratch, "sync", "--check")
        #expect(stale.status == 1)
        #expect(stale.output.contains("regenerate the apps' wiring from components.yaml and the sources: App/reading-room/GeneratedApp.swift"))
        #expect(try tool(scratch, "sync").status == 0)
        let wiring = try scratch.read("App/reading-room/GeneratedApp.swift")
        #expect(
            wiring.contains("import Ribbon\nimport Routing\nimport ShelfInterface\nimport Stamp\npublic import Shell\n"),
            "the modules the shell's API comes from (the fixture's router, where PluginDeclaration lives)")
        #expect(wiring.contains("                    ShelfBadges.self,\n"))
        #expect(wiring.contains("                    RibbonPlugin.self,\n                    StampPlugin.self,\n"))
        #expect(
            wiring.contains(
                "PluginDeclaration(point: \"shelf-interface/badges\", plugin: \"ribbon\", settings: [\"label\": .string(\"New\"), \"size\": .int(2)], source: \"components.yaml (plugins > shelf-interface/badges > ribbon)\"),\n"
                    + "                    PluginDeclaration(point: \"shelf-interface/badges\", plugin: \"stamp\", isEnabled: false, source: \"components.yaml (plugins > shelf-interface/badges > stamp)\"),"
            ))
        #expect(try tool(scratch, "sync", "--check").status == 0)

        try scratch.replace(in: "components.yaml", "      enabled: false\n", with: "      enabled: true\n")
        #expect(try tool(scratch, "sync", "--check").status == 1)
        #expect(try tool(scratch, "sync").status == 0)
        #expect(
            try scratch.read("App/reading-room/GeneratedApp.swift").contains(
                "plugin: \"stamp\", source: \"components.yaml (plugins > shelf-interface/badges > stamp)\""))
    }

    @Test func movingTheDeclarationsLinesLeavesTheWiringAsItIs() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "wiring")
        // A core component goes after the last component, above `plugins:`: every entry moves down.
        let created = try tool(scratch, "new", "Indexer", "--layer", "core")
        #expect(created.status == 0, "\(created.error)")
        let before = try scratch.read("App/reading-room/GeneratedApp.swift")
        try scratch.replace(in: "components.yaml", "plugins:\n", with: "# Comments move every line below them.\n\nplugins:\n")
        #expect(try tool(scratch, "sync", "--check").status == 0)
        #expect(
            try scratch.read("App/reading-room/GeneratedApp.swift").contains(
                "plugin: \"stamp\", isEnabled: false, source: \"components.yaml (plugins > shelf-interface/badges > stamp)\""))
        #expect(try scratch.read("App/reading-room/GeneratedApp.swift") == before)
    }

    @Test func newPluginThenRemoveLeavesTheWorkspaceAsItWas() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "wiring")
        let before = try scratch.listing()
        let files = try ["components.yaml", "Package.swift", "App/reading-room/GeneratedApp.swift"].map { try scratch.read($0) }

        let created = try tool(scratch, "new", "Sticker", "--plugin", "shelf/badges", "--app", "reading-room")
        #expect(created.status == 0, "\(created.error)")
        #expect(created.output.hasPrefix("Created plugin sticker at Packages/Plugins/Sticker, extending shelf-interface/badges"))
        #expect(
            try scratch.read("components.yaml").hasSuffix(
                "    - plugin: stamp\n      enabled: false\n    - plugin: sticker\n\napps:\n  reading-room:\n    components: [shelf, reader, ribbon, stamp, sticker]\n"
            ))
        #expect(created.output.contains(" and added to the app reading-room."))
        #expect(try scratch.read("Package.swift").contains(".package(path: \"Packages/Plugins/Sticker\"),"))
        #expect(try scratch.read("Package.swift").contains(".package(path: \"Packages/Interfaces/ShelfInterface\"),"))
        #expect(try scratch.read("App/reading-room/GeneratedApp.swift").contains("StickerPlugin.self"))
        let source = try scratch.read("Packages/Plugins/Sticker/Sources/Sticker/StickerPlugin.swift")
        #expect(source.contains("public static let id = \"sticker\"") && source.contains("(at Packages/Plugins/Sticker)"))
        #expect(try scratch.read("Packages/Plugins/Sticker/Package.swift").contains(".package(path: \"../../../Packages/Interfaces/ShelfInterface\")"))
        #expect(try tool(scratch, "check-layers").status == 0)
        #expect(try tool(scratch, "sync", "--check").status == 0)

        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "sticker")
        let removed = try tool(scratch, "remove", "sticker")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(try scratch.listing() == before)
        let after = try ["components.yaml", "App/reading-room/GeneratedApp.swift"].map { try scratch.read($0) }
        #expect(after == [files[0], files[2]])
        #expect(try scratch.read("Package.swift") == files[1], "the root names exactly the packages its apps and shell use")
    }

    @Test func removingTheLastPluginOfAPointRemovesItsDeclaration() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        let yaml = try scratch.read("components.yaml")
        let result = try tool(scratch, "remove", "ribbon", "stamp")
        #expect(result.status == 0, "\(result.error)")
        let expected = yaml.components(separatedBy: "\n# Which plugins")[0].replacingOccurrences(
            of: #"(?s)  ribbon:\n.*?\n\n  shelf-interface:"#, with: "\n  shelf-interface:", options: .regularExpression)
        #expect(
            try scratch.read("components.yaml") == expected
                + "\n\napps:\n  reading-room:\n    components: [shelf, reader]\n", "the section goes with its comment")
        #expect(result.output.contains("The app reading-room no longer contains them."))
        #expect(try tool(scratch, "check-layers").status == 0)
    }

    @Test(arguments: [
        (
            ["new", "Sticker", "--plugin", "shelf/covers"],
            "No interface declares the extension point 'shelf-interface/covers'. Did you mean 'shelf-interface/badges'?"
        ),
        (["new", "Sticker", "--plugin", "shelve/badges"], "Unknown extension point 'shelve/badges'."),
        (["new", "Sticker", "--plugin", "badges"], "Write it as <interface or feature>/<point>; the points are shelf-interface/badges."),
        (["new", "Ribbon", "--plugin", "shelf/badges"], "'ribbon' collides with the existing component 'ribbon'"),
        (["new", "sticker", "--plugin", "shelf/badges"], "'sticker' is not a component name"),
        (["new", "Sticker", "--plugin", "shelf/badges", "--layer", "business"], "give --plugin POINT or --layer LAYER, not both"),
        (["new", "ShelfDemo", "--plugin", "shelf/badges"], "'ShelfDemo' would clash with a target of component 'shelf'"),
        (["new", "Foundation", "--plugin", "shelf/badges"], "'Foundation' would clash with a module of the toolchain"),
        (["new", "Shell", "--plugin", "shelf/badges"], "'Shell' would clash with a target of the root package"),
        (["new", "ReadingRoom", "--plugin", "shelf/badges"], "'ReadingRoom' would clash with the executable of app 'reading-room'"),
        (["new", "Sticker", "--plugin", "shelf/badges", "--app", "reading-rom"], "Unknown app 'reading-rom'. Did you mean 'reading-room'?"),
    ])
    func badPluginScaffoldsChangeNothing(arguments: [String], expected: String) throws {
        let scratch = try Scratch.pluginFixtureRepository()
        let before = try scratch.listing()
        let result = try ToolProcess.run(arguments + ["--root", scratch.root.path])
        #expect(result.status == 2)
        #expect(result.error.contains(expected), "\(result.error)")
        #expect(try scratch.listing() == before)
    }

    @Test func aPointWithoutATemplateSaysWhereOneGoes() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Interfaces/ShelfInterface/PluginTemplates"))
        let result = try tool(scratch, "new", "Sticker", "--plugin", "shelf-interface/badges")
        #expect(result.status == 2)
        #expect(result.error.contains("'shelf-interface/badges' has no plugin template: add Packages/Interfaces/ShelfInterface/PluginTemplates/badges/"))
    }
}

/// The documented exit codes of plugin mistakes: a finding of check-layers is 1, a declaration that
/// cannot be loaded is 2, each printed with its place.
@Suite struct PluginExitCodeTests {
    @Test func aSettingOfTheWrongTypeIsAFindingWithExitOne() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", "        size: 2\n", with: "        size: big\n")
        let result = try ToolProcess.run(["check-layers", "--root", scratch.root.path])
        #expect(result.status == 1)
        #expect(result.output.contains("components.yaml:77:15: error: setting 'size' of plugin 'ribbon' must be int, not string"))
    }

    @Test func anUnknownPluginIsAConfigurationErrorWithExitTwo() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", "    - plugin: stamp\n", with: "    - plugin: stmp\n")
        let result = try ToolProcess.run(["check-layers", "--root", scratch.root.path])
        #expect(result.status == 2)
        #expect(result.error.contains("components.yaml:78:15: error: unknown plugin 'stmp'. Fix: did you mean 'stamp'? [config]"))
    }
}
