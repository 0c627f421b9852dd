import Foundation
import Testing
import TestSupport

/// The read-only commands and check-layers' formats, on copies of the frozen fixture workspace.
@Suite struct CommandLineTests {
    /// A fresh copy of the fixture, so no test can change what another reads.
    private var fixture: String { get throws { try Scratch.fixture().root.path } }

    @Test func listJSONHasExactlyTheDocumentedKeys() throws {
        let result = try ToolProcess.run(["list", "--root", fixture, "--format", "json"])
        #expect(result.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 9)
        for row in rows { #expect(Set(row.keys) == ["name", "layer", "kind", "extends", "path", "version", "pin", "modules", "apps"]) }
        let shelf = try #require(rows.first { $0["name"] as? String == "shelf" })
        #expect(shelf["modules"] as? [String] == ["Shelf", "ShelfDemo"])
        #expect(shelf["pin"] is NSNull)
        #expect(shelf["version"] as? String == "1.0.0")
    }

    @Test(arguments: [(8, 8), (40, 120)])
    func aGeneratedWorkspacePassesItsOwnCheck(components: Int, files: Int) throws {
        let folder = try Scratch(named: "generated").root.appendingPathComponent("workspace").path
        let generated = try ToolProcess.run(["dev", "generate-workspace", folder, "--components", "\(components)", "--files", "\(files)"])
        #expect(generated.status == 0, "\(generated.error)")
        let check = try ToolProcess.run(["check-layers", "--root", folder])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.hasPrefix("check-layers: clean"))
    }

    @Test func listTextIsATable() throws {
        let result = try ToolProcess.run(["--root", fixture, "list"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME  ") == true)
        #expect(lines.contains { $0.hasPrefix("reader-interface  business    interface       Packages/Interfaces/ReaderInterface") })
    }

    @Test func anOutputFileNeverReplacesAnInputOfTheWorkspace() throws {
        let scratch = try Scratch.fixture()
        let before = try scratch.read("components.yaml")
        for input in ["components.yaml", "Package.swift", "componentctl-baseline.json"] {
            let run = try ToolProcess.run(["graph", "-o", input], in: scratch.root)
            #expect(run.status == 2 && run.error.contains("would write '\(input)', where componentctl, SwiftPM or git read"), "\(run.error)")
        }
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("link.yaml").path, withDestinationPath: "components.yaml")
        let linked = try ToolProcess.run(["graph", "-o", "link.yaml"], in: scratch.root)
        #expect(linked.status == 2 && linked.error.contains("would write 'components.yaml'"), "through a link too: \(linked.error)")
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("dangling").path, withDestinationPath: ".git/new")
        #expect(try ToolProcess.run(["graph", "-o", "dangling"], in: scratch.root).status == 2, "a dangling link into .git")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent(".git/new").path))
        #expect(try scratch.read("components.yaml") == before)
        let folder = try ToolProcess.run(["graph", "-o", "Packages"], in: scratch.root)
        #expect(folder.status == 2 && folder.error.contains("is a folder"), "\(folder.error)")
        #expect(try ToolProcess.run(["graph", "-o", "graph.dot"], in: scratch.root).status == 0)
    }

    @Test(arguments: [["build", "--scratch", "package"], ["test", "--integrated", "--scratch", "shared"], ["build", "--app", "x", "--scratch", "package"]])
    func scratchIsRefusedWhereNothingIsBuiltAlone(arguments: [String]) throws {
        let run = try ToolProcess.run(["--root", fixture] + arguments)
        #expect(run.status == 2)
        #expect(run.error.contains("chooses where standalone builds compile") && run.error.contains("drop --scratch"), "\(run.error)")
    }

    @Test func theWorkspaceIsFoundFromAnySubfolder() throws {
        let result = try ToolProcess.run(["check-layers"], in: URL(fileURLWithPath: fixture).appendingPathComponent("Packages/Business/Shelf/Sources"))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("check-layers: clean (9 components, 18 Swift files)"))
    }

    @Test func findingsInEveryFormat() throws {
        let scratch = try Scratch.fixture()
        let root = scratch.root.path
        let clean = try ToolProcess.run(["check-layers", "--root", root]).output
        let files = try #require(Int(clean.split(separator: ",").last?.split(separator: " ").first ?? ""))
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Shortcut.swift", "import Cache\n")

        let text = try ToolProcess.run(["check-layers", "--root", root])
        #expect(text.status == 1)
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("Packages/Business/Shelf/Sources/Shelf/Shortcut.swift:1:8: error: 'Shelf' imports Cache"))
        #expect(lines[0].hasSuffix(" [implicit-import]"))
        #expect(lines[1] == "check-layers: 1 error, 0 warnings (9 components, \(files + 1) Swift files)")

        let json = try ToolProcess.run(["check-layers", "--root", root, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((object["findings"] as? [[String: Any]])?.first?["rule"] as? String == "implicit-import")

        let sarif = try ToolProcess.run(["check-layers", "--root", root, "--format", "sarif"])
        #expect(sarif.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.output.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["ruleId"] as? String == "implicit-import")
        #expect(results.first?["level"] as? String == "error")

        let github = try ToolProcess.run(["check-layers", "--root", root, "--format", "github"])
        #expect(
            github.output.hasPrefix(
                "::error file=Packages/Business/Shelf/Sources/Shelf/Shortcut.swift,line=1,col=8,title=implicit-import::'Shelf' imports Cache"))
    }

    @Test func baselineAcceptsKnownFindingsFailsStaleOnesAndOnlyShrinks() throws {
        let scratch = try Scratch.fixture()
        let violation = "Packages/Business/Shelf/Sources/Shelf/Shortcut.swift"
        try scratch.write(violation, "import Reader\n")
        let root = scratch.root.path
        let baseline = scratch.root.appendingPathComponent("baseline.json").path

        #expect(try ToolProcess.run(["check-layers", "--root", root, "--write-baseline", baseline]).status == 0, "every finding is accepted now")
        // Lines moving does not matter: the fingerprint has no line number.
        try scratch.write(violation, "\n\n// moved\nimport Reader\n")
        let accepted = try ToolProcess.run(["check-layers", "--root", root, "--baseline", baseline])
        #expect(accepted.status == 0)
        #expect(accepted.output.hasPrefix("check-layers: clean"))

        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent(violation))
        let stale = try ToolProcess.run(["check-layers", "--root", root, "--baseline", baseline])
        #expect(stale.status == 1)
        #expect(stale.output.contains("error: baseline entry no longer matches a finding"))

        let updated = try ToolProcess.run(["check-layers", "--root", root, "--baseline", baseline, "--update-baseline"])
        #expect(updated.status == 0)
        #expect(updated.error.contains("removed 1 stale entry"))
        #expect(try scratch.read("baseline.json").contains("\"findings\" : [\n\n  ]"))

        try scratch.write(violation, "import Reader\n")
        let reintroduced = try ToolProcess.run(["check-layers", "--root", root, "--baseline", baseline, "--update-baseline"])
        #expect(reintroduced.status == 1)
        #expect(try scratch.read("baseline.json").contains("\"findings\" : [\n\n  ]"))
    }

    @Test func whyShowsTheChainWithImportSites() throws {
        let fixture = try fixture
        let result = try ToolProcess.run(["why", "shelf", "cache", "--root", fixture])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "shelf -> catalog -> cache")
        #expect(lines.contains { $0.contains("import Cache  Packages/Core/Catalog/Sources/Catalog/Catalog.swift:1:8") })

        let none = try ToolProcess.run(["why", "cache", "shelf", "--root", fixture])
        #expect(none.status == 1)

        let unknown = try ToolProcess.run(["why", "shelv", "cache", "--root", fixture])
        #expect(unknown.status == 2)
        #expect(unknown.error == "error: Unknown component 'shelv'. Did you mean 'shelf'? See 'componentctl list'.\n")
    }

    @Test func graphFormats() throws {
        let fixture = try fixture
        let dot = try ToolProcess.run(["graph", "--root", fixture])
        // Bands top to bottom: business implementations, their interfaces, core, foundation, chained in that order.
        let bands = dot.output.split(separator: "\n").filter { $0.contains("rank=same") }
        #expect(
            bands.map { $0.split(separator: "label=\"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? "" }
                == ["business", "business interfaces", "core", "foundation"])
        #expect(bands.first?.contains("\"shelf\" [shape=box];") == true)
        #expect(bands.dropFirst().first?.contains("\"shelf-interface\" [shape=note];") == true)
        #expect(dot.output.contains("  band0 -> band1 -> band2 -> band3 [style=invis, weight=100];"))
        #expect(dot.output.contains("\"shelf\" -> \"reader-interface\";"))
        let mermaid = try ToolProcess.run(["graph", "--root", fixture, "--format", "mermaid"])
        #expect(mermaid.output.hasPrefix("flowchart TB\n  subgraph business\n"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID()).json")
        #expect(try ToolProcess.run(["graph", "--root", fixture, "--format", "json", "-o", output.path]).status == 0)
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect((graph["nodes"] as? [Any])?.count == 9)

        let noDot = try ToolProcess.run(["graph", "--root", fixture, "--format", "svg"], environment: ["PATH": "/nonexistent"])
        #expect(noDot.status == 3)
        #expect(noDot.error.contains("apt-get install graphviz"))
    }

    @Test func violationsAreRedInTheGraph() throws {
        let scratch = try Scratch.fixture()
        try scratch.replace(
            in: "Packages/Core/Cache/Package.swift", "    dependencies: [\n",
            with: "    dependencies: [\n        .package(path: \"../../Business/Shelf\"),\n")
        let dot = try ToolProcess.run(["graph", "--root", scratch.root.path])
        #expect(dot.output.contains("\"cache\" -> \"shelf\" [color=red, fontcolor=red, label=\"layer-order\"];"))
    }

    @Test func configurationAndUsageErrorsAreExitTwo() throws {
        let scratch = try Scratch(named: "broken")
        try scratch.write("components.yaml", "layers: [business]\ncomponents:\n  nope:\n    path: Nope\n    layer: business\n")
        let broken = try ToolProcess.run(["check-layers", "--root", scratch.root.path])
        #expect(broken.status == 2)
        #expect(broken.error.hasPrefix("components.yaml:4:11: error: path 'Nope' of 'nope' does not exist."))

        let nowhere = try ToolProcess.run(["list"], in: FileManager.default.temporaryDirectory)
        #expect(nowhere.status == 2)
        #expect(nowhere.error.contains("No components.yaml in"))
        let below = try ToolProcess.run(["list", "--root", scratch.root.appendingPathComponent("Nope").path])
        #expect(below.status == 2)
        #expect(below.error.contains("holds no components.yaml. The workspace above it is at '\(scratch.root.path)': pass --root"), "\(below.error)")

        #expect(try ToolProcess.run(["check-layers", "--root", fixture, "--format", "xml"]).status == 2)
        #expect(try ToolProcess.run(["frobnicate"]).status == 2)
        #expect(try ToolProcess.run(["check-layers", "--update-baseline", "--root", fixture]).status == 2)
        let help = try ToolProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("check-layers"))
    }
}
