import ComponentKit
import Foundation
import Testing
import TestSupport

/// `graph --format html`, opened in headless Chromium: what a reader sees after the page's script ran, and after a click.
@Suite struct GraphPageTests {
    /// The page's DOM after its script ran, opened at `hash` (the state a reader reaches by clicking and choosing).
    private func dom(_ page: URL, _ hash: String = "") throws -> String {
        let chromium = try #require(
            GraphRenderer.findExecutable("chromium", path: ProcessInfo.processInfo.environment["PATH"])
                ?? GraphRenderer.findExecutable("chromium-browser", path: ProcessInfo.processInfo.environment["PATH"]),
            "the page is checked in a real browser: install Chromium (apt-get install chromium)")
        let profile = page.deletingLastPathComponent().appendingPathComponent("chromium-profile-\(UUID().uuidString)")
        let run = try ProcessRunner.run(
            URL(fileURLWithPath: chromium),
            ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--dump-dom", page.absoluteString + hash])
        #expect(run.status == 0, "\(run.errorText)")
        return run.text
    }

    /// The nodes the page drew, by name, with their classes.
    private func nodes(_ dom: String) -> [String: String] {
        var found: [String: String] = [:]
        for part in dom.components(separatedBy: "<g class=\"").dropFirst() {
            let classes = part.prefix { $0 != "\"" }
            guard let name = part.components(separatedBy: "data-name=\"").dropFirst().first?.prefix(while: { $0 != "\"" }) else { continue }
            found[String(name)] = String(classes)
        }
        return found
    }

    private func page(of scratch: Scratch, _ extra: [String] = []) throws -> URL {
        let page = scratch.root.deletingLastPathComponent().appendingPathComponent("graph.html")
        let run = try ToolProcess.run(["graph", "--format", "html", "-o", page.path] + extra, in: scratch.root)
        #expect(run.status == 0, "\(run.error)")
        return page
    }

    @Test func thePageShowsLayersComponentsEdgesAndFindingsInRed() throws {
        let scratch = try Scratch.fixtureRepository()
        // A business implementation depending on another: a rule broken in the manifest.
        try scratch.replace(
            in: "Packages/Business/Shelf/Package.swift", ".package(path: \"../../Foundation/Kit\"),",
            with: ".package(path: \"../../Foundation/Kit\"), .package(path: \"../Reader\"),")
        let workspace = try scratch.load()
        let shown = try dom(try page(of: scratch))
        let drawn = nodes(shown)
        #expect(Set(drawn.keys) == Set(workspace.components.map(\.name)), "\(drawn)")
        for layer in workspace.rules.layers { #expect(shown.contains("data-layer=\"\(layer)\""), "the band of \(layer)") }
        #expect(shown.contains("class=\"edge violation\" d=") && shown.contains("data-from=\"shelf\" data-to=\"reader\""), "the broken edge is red")
        #expect(drawn["shelf"]?.contains("failing") == true, "\(drawn["shelf"] ?? "")")
        #expect(drawn["values"]?.contains("failing") == false)
        #expect(shown.contains("edges breaking the rules"))
    }

    @Test func aClickShowsDependenciesDependentsModulesAndTheChainToAnother() throws {
        let scratch = try Scratch.fixtureRepository()
        let page = try page(of: scratch)
        let clicked = try dom(page, "#click=catalog")
        let details = try #require(clicked.components(separatedBy: "id=\"details\"").dropFirst().first)
        #expect(details.contains("<h2>catalog</h2>"), "\(details)")
        let dependsOn = try #require(details.components(separatedBy: "<h3>Depends on</h3>").dropFirst().first?.components(separatedBy: "<h3>").first)
        #expect(dependsOn.contains("<li>cache</li>"), "\(dependsOn)")
        let usedBy = try #require(details.components(separatedBy: "<h3>Used by</h3>").dropFirst().first?.components(separatedBy: "<h3>").first)
        #expect(usedBy.contains("<li>shelf</li>"), "\(usedBy)")
        #expect(details.contains("<li>Catalog</li>"), "its module")
        #expect(nodes(clicked)["catalog"]?.contains("selected") == true)

        let why = try dom(page, "#select=shelf&why=cache")
        #expect(
            why.contains("<p id=\"chain\">shelf -&gt; catalog -&gt; cache</p>"),
            "\(why.components(separatedBy: "id=\"chain\"").dropFirst().first?.prefix(200) ?? "")")
        #expect(why.contains("class=\"edge chain\""))
        let none = try dom(page, "#select=values&why=shelf")
        #expect(none.contains("values does not depend on shelf"))
    }

    @Test func filtersByLayerAndAppAndHighlightsWhatAChangeAffects() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("Packages/Core/Cache/Sources/Cache/Extra.swift", "public let extra = 1\n")
        try scratch.commitAll("cache changes")
        try scratch.declareApps("  reading:\n    components: [reader]\n")
        let page = try page(of: scratch, ["--affected-base", "HEAD~1"])
        let reading = nodes(try dom(page, "#app=reading"))
        #expect(reading["reader"] != nil && reading["shelf"] == nil, "\(reading.keys)")
        let core = nodes(try dom(page, "#layers=core"))
        #expect(Set(core.keys) == ["catalog", "cache"], "\(core.keys)")
        let all = nodes(try dom(page))
        #expect(Set(all.filter { $0.value.contains("affected") }.keys) == ["cache", "catalog", "shelf"], "cache, and what uses it")
        #expect(try dom(page).contains("3 affected since HEAD~1"))
    }

    @Test func aComponentWhoseManifestCannotBeReadIsMarkedNotLeftOut() throws {
        let scratch = try Scratch.fixtureRepository()
        let manifest = "Packages/Foundation/Values/Package.swift"
        try scratch.write(manifest, try scratch.read(manifest) + "\nfunc broken() -> Int { undefinedName }\n")
        let run = try ToolProcess.run(["graph", "--format", "html", "-o", scratch.root.appendingPathComponent("g.html").path], in: scratch.root)
        #expect(run.error.contains("note: the manifests of values could not be read"), "\(run.error)")
        let shown = try dom(scratch.root.appendingPathComponent("g.html"))
        #expect(nodes(shown)["values"]?.contains("unreadable") == true)
        #expect(shown.contains("values (manifest not read)"))
        let why = try ToolProcess.run(["why", "kit", "values"], in: scratch.root)
        #expect(why.output.contains("the manifest of 'values' could not be read, so one may exist"), "\(why.output)")
    }
}
