import Foundation
import Testing
import TestSupport

/// Components are identified by content where a label could mislead: the apps' wiring records the content key
/// of every component they link, and `plugin pack` builds a runtime plugin only against released content.
@Suite struct ContentKeyTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    /// The plugin fixture with `stamp` shipped at run time, committed as a new repository and synced.
    private func runtimeRepository() throws -> Scratch {
        let scratch = try Scratch.runtimePluginFixture()
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "synced")
        return scratch
    }

    /// The content keys `hash --content` gives `names`.
    private func contentKeys(_ scratch: Scratch, _ names: [String]) throws -> [String: String] {
        struct Key: Decodable {
            var name: String
            var key: String
        }
        let hashed = try ToolProcess.run(["hash"] + names + ["--content", "--format", "json", "--root", scratch.root.path])
        #expect(hashed.status == 0, "\(hashed.error)")
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([Key].self, from: Data(hashed.output.utf8)).map { ($0.name, $0.key) })
    }

    @Test func theWiringRecordsTheContentKeyOfEveryLinkedComponentAndSyncCheckNamesTheOneThatChanged() throws {
        let scratch = try runtimeRepository()
        let wiring = try scratch.read("App/reading-room/GeneratedApp.swift")
        let linked = ["reader", "ribbon", "routing", "shelf", "shelf-interface"]
        for (name, key) in try contentKeys(scratch, linked) {
            #expect(wiring.contains("                \"\(name)\": \"\(key)\",\n"), "\(name) \(key)")
        }
        #expect(!wiring.contains("\"stamp\": \""), "a runtime plugin is no part of the App's content")
        let environmentKey = try ToolProcess.run(["hash", "routing", "--format", "key", "--root", scratch.root.path]).output
        #expect(!wiring.contains(environmentKey.trimmingCharacters(in: .newlines)), "the toolchain and configuration are no part of it")

        let routing = try #require(try scratch.listing().first { $0.hasPrefix("./Packages/Foundation/Routing/Sources/") && $0.hasSuffix(".swift") })
        try scratch.write(String(routing.dropFirst(2)), try scratch.read(String(routing.dropFirst(2))) + "public let added = 1\n")
        let check = try tool(scratch, "sync", "--check")
        #expect(check.status == 1)
        #expect(check.output.contains("(the content of routing changed: "), "only the component that changed: \(check.output)")
        #expect(try tool(scratch, "sync").status == 0)
        let uncommitted = try scratch.read("App/reading-room/GeneratedApp.swift")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "routing changed")
        #expect(try tool(scratch, "sync", "--check").status == 0, "a key of uncommitted content stays the key once committed")
        #expect(try scratch.read("App/reading-room/GeneratedApp.swift") == uncommitted)
    }

    @Test func aLinkOutOfTheRepositoryStopsSyncNamingItInsteadOfDroppingTheKey() throws {
        let scratch = try runtimeRepository()
        let link = "Packages/Foundation/Routing/.build"
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent(link).path, withDestinationPath: "/nonexistent")
        let before = try scratch.read("App/reading-room/GeneratedApp.swift")
        for arguments in [["sync"], ["sync", "--check"]] {
            let refused = try ToolProcess.run(arguments + ["--root", scratch.root.path])
            #expect(refused.status == 2, "\(arguments): \(refused.output)")
            #expect(refused.error.contains("'routing' holds the link \(link), which leads out of the repository (to /nonexistent)"), "\(refused.error)")
        }
        #expect(try scratch.read("App/reading-room/GeneratedApp.swift") == before)
    }

    @Test func aPinnedComponentCountsWithItsReleaseWhateverItsFolderHolds() throws {
        let scratch = try runtimeRepository()
        #expect(try tool(scratch, "release", "reader", "1.0.1").status == 0)
        #expect(try tool(scratch, "pin", "reader", "1.0.1").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "pinned")
        let pinned = try contentKeys(scratch, ["reader"])
        try scratch.write("Packages/Business/Reader/NOTES.md", "work in progress\n")
        #expect(try contentKeys(scratch, ["reader"]) == pinned)
        #expect(try tool(scratch, "sync", "--check").status == 0)
        let release = try tool(scratch, "release", "shelf", "1.0.1")
        #expect(release.status == 0, "the wiring records reader's release, not its folder: \(release.error)")
    }

    @Test func packRefusesADependencyWhoseInputsChangedSinceItsReleaseThoughItsFolderDidNot() throws {
        let scratch = try runtimeRepository()
        try scratch.replace(in: "components.yaml", "  scheme: lib ", with: "  inputs: [.swift-version]\n  scheme: lib ")
        try scratch.write(".swift-version", "6.0\n")
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "an input")
        #expect(try tool(scratch, "release", "routing", "1.0.0").status == 0)
        #expect(try tool(scratch, "release", "stamp", "1.0.1").status == 0)
        try scratch.write(".swift-version", "6.1\n")
        let release = try tool(scratch, "release", "shelf", "1.0.1")
        #expect(release.status == 3)
        #expect(release.error.contains("'shelf' cannot be released while the input .swift-version has uncommitted changes"), "\(release.error)")
        try scratch.git("commit", "-qam", "another toolchain")

        let key = scratch.root.deletingLastPathComponent().appendingPathComponent("content-\(UUID().uuidString).key")
        #expect(try ToolProcess.run(["plugin", "keygen", "--key", key.path]).status == 0)
        let pack = try tool(scratch, "plugin", "pack", "stamp", "1.0.1", "--key", key.path)
        #expect(pack.status == 1, "\(pack.output)\(pack.error)")
        #expect(pack.error.contains("'routing' is as released in routing@1.0.0, but what else its content key covers changed since"), "\(pack.error)")
    }

    @Test func packRefusesADependencyThatDiffersFromItsReleaseAndReleaseRefusesUncommittedLinkedContent() throws {
        let scratch = try runtimeRepository()
        #expect(try tool(scratch, "release", "routing", "1.0.0").status == 0)
        #expect(try tool(scratch, "release", "stamp", "1.0.1").status == 0)
        let key = scratch.root.deletingLastPathComponent().appendingPathComponent("content-\(UUID().uuidString).key")
        #expect(try ToolProcess.run(["plugin", "keygen", "--key", key.path]).status == 0)

        let routing = try #require(try scratch.listing().first { $0.hasPrefix("./Packages/Foundation/Routing/Sources/") && $0.hasSuffix(".swift") })
        try scratch.write(String(routing.dropFirst(2)), try scratch.read(String(routing.dropFirst(2))) + "public struct Added { var stored = 1 }\n")
        let before = try scratch.listing()
        let pack = try tool(scratch, "plugin", "pack", "stamp", "1.0.1", "--key", key.path)
        #expect(pack.status == 1, "\(pack.output)\(pack.error)")
        #expect(
            pack.error.contains("stamp@1.0.1 cannot be packed: 'routing' (Packages/Foundation/Routing) differs from its release routing@1.0.0"), "\(pack.error)"
        )
        #expect(try scratch.listing() == before, "nothing built, nothing written")

        let release = try tool(scratch, "release", "ribbon", "1.0.1")
        #expect(release.status == 3)
        #expect(release.error.contains("'ribbon' cannot be released while routing has uncommitted changes"), "\(release.error)")
    }
}
