import Foundation
import Testing
import TestSupport

@Suite struct CommandLineTests {
    private let sample = Scratch.sampleRoot.path

    @Test func listJSONHasExactlyTheDocumentedKeys() throws {
        let result = try ToolProcess.run(["list", "--root", sample, "--format", "json"])
        #expect(result.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 16)
        for row in rows { #expect(Set(row.keys) == ["name", "layer", "kind", "path", "version", "pin", "modules"]) }
        let cart = try #require(rows.first { $0["name"] as? String == "cart" })
        #expect(cart["modules"] as? [String] == ["Cart", "CartDemo"])
        #expect(cart["pin"] is NSNull)
        #expect(cart["version"] as? String == "1.0.0")
    }

    @Test func listTextIsATable() throws {
        let result = try ToolProcess.run(["--root", sample, "list"])
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME  ") == true)
        #expect(lines.contains { $0.hasPrefix("user-interface     business    interface       Packages/Interfaces/UserInterface") })
    }

    @Test func theSampleWorkspaceIsCleanFromAnySubfolder() throws {
        let result = try ToolProcess.run(["check-layers"], in: Scratch.sampleRoot.appendingPathComponent("Packages/Business"))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("check-layers: clean (16 components, "))
    }

    @Test func findingsInEveryFormat() throws {
        let scratch = try Scratch.sample()
        let root = scratch.root.path
        let clean = try ToolProcess.run(["check-layers", "--root", root]).output
        let files = try #require(Int(clean.split(separator: ",").last?.split(separator: " ").first ?? ""))
        try scratch.write("Packages/Business/Order/Sources/Order/Shortcut.swift", "import Cart\n")

        let text = try ToolProcess.run(["check-layers", "--root", root])
        #expect(text.status == 1)
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("Packages/Business/Order/Sources/Order/Shortcut.swift:1:8: error: 'Order' imports Cart"))
        #expect(lines[0].hasSuffix(" [implicit-import]"))
        #expect(lines[1] == "check-layers: 1 error, 0 warnings (16 components, \(files + 1) Swift files)")

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
        #expect(github.output.hasPrefix("::error file=Packages/Business/Order/Sources/Order/Shortcut.swift,line=1,col=8,title=implicit-import::'Order' imports Cart"))
    }

    @Test func baselineAcceptsKnownFindingsFailsStaleOnesAndOnlyShrinks() throws {
        let scratch = try Scratch.sample()
        let violation = "Packages/Business/Order/Sources/Order/Shortcut.swift"
        try scratch.write(violation, "import Cart\n")
        let root = scratch.root.path
        let baseline = scratch.root.appendingPathComponent("baseline.json").path

        #expect(try ToolProcess.run(["check-layers", "--root", root, "--write-baseline", baseline]).status == 1)
        // Lines moving does not matter: the fingerprint has no line number.
        try scratch.write(violation, "\n\n// moved\nimport Cart\n")
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

        try scratch.write(violation, "import Cart\n")
        let reintroduced = try ToolProcess.run(["check-layers", "--root", root, "--baseline", baseline, "--update-baseline"])
        #expect(reintroduced.status == 1)
        #expect(try scratch.read("baseline.json").contains("\"findings\" : [\n\n  ]"))
    }

    @Test func whyShowsTheChainWithImportSites() throws {
        let result = try ToolProcess.run(["why", "home", "models", "--root", sample])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "home -> models")
        #expect(lines.contains { $0.contains("import Models  Packages/Business/Home/Sources/Home/HomeModule.swift:3:8") })

        let none = try ToolProcess.run(["why", "models", "home", "--root", sample])
        #expect(none.status == 1)

        let unknown = try ToolProcess.run(["why", "hme", "models", "--root", sample])
        #expect(unknown.status == 2)
        #expect(unknown.error == "error: Unknown component 'hme'. Did you mean 'home'? See 'componentctl list'.\n")
    }

    @Test func graphFormats() throws {
        let dot = try ToolProcess.run(["graph", "--root", sample])
        // Bands top to bottom: business implementations, their interfaces, core, foundation, chained in that order.
        let bands = dot.output.split(separator: "\n").filter { $0.contains("rank=same") }
        #expect(bands.map { $0.split(separator: "label=\"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? "" }
            == ["business", "business interfaces", "core", "foundation"])
        #expect(bands.first?.contains("\"order\" [shape=box];") == true)
        #expect(bands.dropFirst().first?.contains("\"order-interface\" [shape=note];") == true)
        #expect(dot.output.contains("  band0 -> band1 -> band2 -> band3 [style=invis, weight=100];"))
        #expect(dot.output.contains("\"order\" -> \"cart-interface\";"))
        let mermaid = try ToolProcess.run(["graph", "--root", sample, "--format", "mermaid"])
        #expect(mermaid.output.hasPrefix("flowchart TB\n  subgraph business\n"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID()).json")
        #expect(try ToolProcess.run(["graph", "--root", sample, "--format", "json", "-o", output.path]).status == 0)
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect((graph["nodes"] as? [Any])?.count == 16)

        let noDot = try ToolProcess.run(["graph", "--root", sample, "--format", "svg"], environment: ["PATH": "/nonexistent"])
        #expect(noDot.status == 3)
        #expect(noDot.error.contains("apt-get install graphviz"))
    }

    @Test func violationsAreRedInTheGraph() throws {
        let scratch = try Scratch.sample()
        try scratch.replace(in: "Packages/Core/Storage/Package.swift", "    dependencies: [\n",
                            with: "    dependencies: [\n        .package(path: \"../../Business/Cart\"),\n")
        let dot = try ToolProcess.run(["graph", "--root", scratch.root.path])
        #expect(dot.output.contains("\"storage\" -> \"cart\" [color=red, fontcolor=red, label=\"layer-order\"];"))
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

        #expect(try ToolProcess.run(["check-layers", "--root", sample, "--format", "xml"]).status == 2)
        #expect(try ToolProcess.run(["frobnicate"]).status == 2)
        #expect(try ToolProcess.run(["check-layers", "--update-baseline", "--root", sample]).status == 2)
        let help = try ToolProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("check-layers"))
    }
}
