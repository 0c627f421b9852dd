import ComponentKit
import Foundation
import PluginFeed
import Testing
import TestSupport

/// Runtime plugins on the plugin fixture: `runtime: true`, the rules that keep them on the shared
/// libraries, the wiring that leaves them out, and a feed's publish and verify.
@Suite struct RuntimePluginModelTests {
    /// The plugin fixture with stamp shipped at run time (and no longer declared under `plugins:`).
    private func runtimeFixture() throws -> Scratch { try Scratch.runtimePluginFixture() }

    private func findings(_ scratch: Scratch) throws -> [Diagnostic] {
        LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings()
    }

    @Test func runtimeIsReadForPluginsOnly() throws {
        let scratch = try runtimeFixture()
        #expect(try scratch.load().component(named: "stamp")?.isRuntime == true)
        #expect(try scratch.load().component(named: "ribbon")?.isRuntime == false)
        try scratch.replace(in: "components.yaml", "    runtime: true\n", with: "    runtime: yes\n")
        #expect(throws: WorkspaceError.self) { try scratch.load() }
    }

    @Test func aRuntimePluginOnTheOrdinaryProductsIsAFindingWithTheFix() throws {
        let rules = try findings(runtimeFixture()).filter { $0.rule == "runtime-plugin-static-dependency" }
        #expect(rules.count == 2)
        #expect(rules.first?.text.contains("links 'ShelfInterface' of 'shelf-interface' statically") == true)
        #expect(rules.first?.text.contains(#"depend on .product(name: "ShelfInterfaceDynamic", package: "ShelfInterface")"#) == true)
    }

    @Test func aRuntimePluginRouteThatMatchesURLsOfAnotherComponentIsAFindingNamingBoth() throws {
        let scratch = try runtimeFixture()
        try scratch.write(
            "Packages/Plugins/Stamp/Sources/Stamp/StampRoutes.swift",
            "func registerRoutes(_ registry: RouteRegistry) throws {\n    try registry.register(\"lib://book/42\", owner: \"stamp\")\n}\n")
        let found = try findings(scratch).filter { $0.rule == "plugin-route-overlap" }
        #expect(found.count == 1)
        #expect(
            found.first?.text.contains(
                "route 'lib://book/42' of runtime plugin 'stamp' matches URLs that 'lib://book/<int:id>' of 'reader' "
                    + "(Packages/Interfaces/ReaderInterface/Sources/ReaderInterface/ReaderInterface.swift:8:") == true, "\(found)")
        try scratch.write(
            "Packages/Plugins/Stamp/Sources/Stamp/StampRoutes.swift",
            "func registerRoutes(_ registry: RouteRegistry) throws {\n    try registry.register(\"lib://book/special\", owner: \"stamp\")\n}\n")
        #expect(try findings(scratch).filter { $0.rule == "plugin-route-overlap" }.isEmpty, "an int parameter never matches 'special'")
    }

    @Test func theAppMustListTheSharedLibrariesItsRuntimePluginsLink() throws {
        let scratch = try runtimeFixture()
        try scratch.replace(
            in: "Packages/Plugins/Stamp/Package.swift", #"dependencies: ["ShelfInterface", "Routing"]"#,
            with: #"dependencies: [.product(name: "ShelfInterfaceDynamic", package: "ShelfInterface"), .product(name: "RoutingDynamic", package: "Routing")]"#)
        try scratch.write("Package.swift", "// swift-tools-version: 6.0\nlet hosted = [.product(name: \"RoutingDynamic\", package: \"Routing\")]\n")
        let found = try findings(scratch)
        #expect(!found.contains { $0.rule == "runtime-plugin-static-dependency" })
        let host = found.filter { $0.rule == "runtime-plugin-host" }
        #expect(
            host.map(\.message) == [
                "runtime plugin 'stamp' links 'ShelfInterfaceDynamic', which the App does not list, so the plugin cannot share the App's copy of 'shelf-interface'"
            ])
        // sync writes the list: each library a runtime plugin links, once, and its package among the root's.
        let output = try #require(try AppWiring.generate(try scratch.load()))
        #expect(
            output.manifestBlock.hasSuffix(
                "let runtimePluginLibraries: [Target.Dependency] = [\n    .product(name: \"RoutingDynamic\", package: \"Routing\"),\n"
                    + "    .product(name: \"ShelfInterfaceDynamic\", package: \"ShelfInterface\"),\n]\n"), "\(output.manifestBlock)")
        #expect(output.packages.contains { $0.name == "shelf-interface" })
    }

    @Test func aRuntimePluginCannotBeDeclared() throws {
        let scratch = try runtimeFixture()
        try scratch.replace(in: "components.yaml", "    - plugin: ribbon\n", with: "    - plugin: stamp\n    - plugin: ribbon\n")
        #expect(try findings(scratch).contains { $0.rule == "runtime-plugin-declared" })
    }

    @Test func theWiringLeavesRuntimePluginsOutAndListsTheHostAPI() throws {
        let output = try #require(try AppWiring.generate(try runtimeFixture().load()))
        let wiring = String(decoding: try #require(output.files["App/reading-room/GeneratedApp.swift"]), as: UTF8.self)
        #expect(!wiring.contains("StampPlugin"))
        #expect(!wiring.contains("import Stamp"))
        #expect(wiring.contains("ShelfBadges.self"), "the point a runtime plugin extends stays wired")
        #expect(wiring.contains("            hostAPI: [\n"))
        #expect(wiring.contains("\"ribbon\": \"1.0.0\","))
        #expect(!wiring.contains("\"stamp\":"), "a runtime plugin is no part of the App's API")
    }

    @Test func anAppCannotListARuntimePlugin() throws {
        let scratch = try runtimeFixture()
        try scratch.replace(in: "components.yaml", "[shelf, reader, ribbon]", with: "[shelf, reader, ribbon, stamp]")
        #expect {
            try scratch.load()
        } throws: { error in
            "\(error)".contains("'stamp' in app 'reading-room' is a runtime plugin: it is downloaded by the App, never linked")
        }
    }

    @Test func theEntryScannerReadsCDeclNamesOutsideComments() {
        let source = "// @_cdecl(\"commented\")\n@_cdecl(\"real_entry\")\npublic func entry() {}\n"
        #expect(RuntimePluginPacker.entries(in: Array(source.utf8)) == ["real_entry"])
    }
}

/// `componentctl plugin publish` and `verify` on archives made in the test.
@Suite struct FeedPublisherTests {
    let key = PluginSigningKey()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("publisher-\(UUID().uuidString)")

    private func archive(_ version: String, library: String = "library", signer: PluginSigningKey? = nil) throws -> URL {
        let url = folder.appendingPathComponent("archives/badge-\(version)-\(UUID().uuidString).tar")
        try PluginArchiveFixture.write(version: version, library: Data(library.utf8), signer: signer ?? key, to: url)
        return url
    }

    @Test func publishingAddsVersionsAndRaisesTheSequence() throws {
        let feed = folder.appendingPathComponent("feed")
        #expect(try FeedPublisher.publish(archives: [archive("1.0.0")], feed: feed, key: key).contains("index sequence 1"))
        #expect(try FeedPublisher.publish(archives: [archive("1.1.0")], feed: feed, key: key).contains("index sequence 2"))
        let report = try FeedPublisher.verify(feed, keys: try TrustedKeys([key.publicKey]))
        #expect(
            report.split(separator: "\n") == [
                "ok: index (sequence 2), signature verified", "ok: badge 1.0.0: archive hash, manifest signature and library hash verified",
                "ok: badge 1.1.0: archive hash, manifest signature and library hash verified",
            ])
    }

    @Test func publishersAtOnceAllGetTheirVersionIntoOneSignedIndex() throws {
        let feed = folder.appendingPathComponent("feed")
        let archives = try (0..<6).map { try archive("1.\($0).0") }
        DispatchQueue.concurrentPerform(iterations: archives.count) { index in
            _ = try? FeedPublisher.publish(archives: [archives[index]], feed: feed, key: key)
        }
        let report = try FeedPublisher.verify(feed, keys: try TrustedKeys([key.publicKey]))
        #expect(report.hasPrefix("ok: index (sequence 6), signature verified"), "\(report)")
        #expect(report.split(separator: "\n").count == 7, "every version in the index")
    }

    @Test func publishingSeveralArchivesChecksThemAllBeforeWritingAny() throws {
        let feed = folder.appendingPathComponent("feed")
        _ = try FeedPublisher.publish(archives: [archive("1.0.0")], feed: feed, key: key)
        let before = try Data(contentsOf: feed.appendingPathComponent(FeedIndex.fileName))
        let clash = try archive("1.0.0", library: "other bytes")
        #expect(throws: ToolError.self) { try FeedPublisher.publish(archives: [try archive("1.1.0"), clash], feed: feed, key: key) }
        #expect(throws: ToolError.self) {
            try FeedPublisher.publish(archives: [try archive("1.2.0"), folder.appendingPathComponent("missing.tar")], feed: feed, key: key)
        }
        #expect(try Data(contentsOf: feed.appendingPathComponent(FeedIndex.fileName)) == before)
        #expect(!FileManager.default.fileExists(atPath: feed.appendingPathComponent("plugins/badge/badge-1.1.0.tar").path))
        let both = try FeedPublisher.publish(archives: [archive("1.1.0"), archive("1.2.0")], feed: feed, key: key)
        #expect(both.split(separator: "\n").allSatisfy { $0.contains("(index sequence 2)") }, "\(both)")
    }

    @Test func aPluginWhoseRouteMatchesURLsOfAnotherPluginInTheFeedIsNotPublished() throws {
        let feed = folder.appendingPathComponent("feed")
        let shelf = folder.appendingPathComponent("archives/shelf-extra.tar")
        try PluginArchiveFixture.write(id: "shelf-extra", version: "1.0.0", routes: ["lib://shelf/:name"], library: Data("a".utf8), signer: key, to: shelf)
        _ = try FeedPublisher.publish(archives: [shelf], feed: feed, key: key)
        let list = folder.appendingPathComponent("archives/list-view.tar")
        try PluginArchiveFixture.write(id: "list-view", version: "1.0.0", routes: ["lib://shelf/list"], library: Data("b".utf8), signer: key, to: list)
        let refusal = #expect(throws: ToolError.self) { try FeedPublisher.publish(archives: [list], feed: feed, key: key) }
        let both = "its route 'lib://shelf/list' matches URLs that 'lib://shelf/:name' of shelf-extra 1.0.0"
        #expect(refusal?.message.contains(both) == true, "\(String(describing: refusal))")
        let other = folder.appendingPathComponent("archives/list-view-2.tar")
        try PluginArchiveFixture.write(id: "list-view", version: "1.0.1", routes: ["lib://list/all"], library: Data("c".utf8), signer: key, to: other)
        #expect(try FeedPublisher.publish(archives: [other], feed: feed, key: key).contains("Published list-view 1.0.1"))
    }

    @Test func aPublishedVersionNeverChangesAndAnotherKeyCannotExtendTheFeed() throws {
        let feed = folder.appendingPathComponent("feed")
        let first = try archive("1.0.0")
        _ = try FeedPublisher.publish(archives: [first], feed: feed, key: key)
        #expect(try FeedPublisher.publish(archives: [first], feed: feed, key: key).contains("already in the feed; nothing changed"))
        #expect(throws: ToolError.self) { try FeedPublisher.publish(archives: [try archive("1.0.0", library: "other bytes")], feed: feed, key: key) }
        let other = PluginSigningKey()
        #expect(throws: ToolError.self) { try FeedPublisher.publish(archives: [try archive("2.0.0", signer: other)], feed: feed, key: other) }
        #expect(throws: ToolError.self) { try FeedPublisher.publish(archives: [try archive("2.0.0", signer: other)], feed: feed, key: key) }
    }

    @Test func verifyFindsAnArchiveChangedInTheFeed() throws {
        let feed = folder.appendingPathComponent("feed")
        _ = try FeedPublisher.publish(archives: [archive("1.0.0")], feed: feed, key: key)
        let stored = feed.appendingPathComponent("plugins/badge/badge-1.0.0.tar")
        var bytes = try Data(contentsOf: stored)
        bytes[bytes.count - 1100] ^= 1
        try bytes.write(to: stored)
        let error = #expect(throws: ToolError.self) { try FeedPublisher.verify(feed, keys: try TrustedKeys([key.publicKey])) }
        #expect(error?.exitStatus == .findings)
    }
}
