import Foundation
import Testing
import TestSupport

/// `componentctl plugin keygen`, `publish` and `verify` as a publisher runs them, with their exit codes.
@Suite struct PluginFeedCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-commands-\(UUID().uuidString)")

    @Test func keygenWritesAPrivateKeyOnceAndPrintsThePublicOne() throws {
        let key = folder.appendingPathComponent("keys/signing.key")
        let made = try ToolProcess.run(["plugin", "keygen", "--key", key.path])
        #expect(made.status == 0)
        #expect(made.output.contains("Wrote the private key to \(key.path) (mode 600)"))
        let publicKey = try #require(made.output.split(separator: "\n").last)
        #expect(Data(base64Encoded: String(publicKey))?.count == 32)
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try ToolProcess.run(["plugin", "keygen", "--key", key.path])
        #expect(again.status == 2)
        #expect(again.error.contains("exists already; keep it, or pass --force to replace it"))
        let folderKey = try ToolProcess.run(["plugin", "keygen", "--key", folder.path, "--force"])
        #expect(folderKey.status == 2)
        #expect(folderKey.error.contains("is a folder; --key names the key's file"))
    }

    @Test func aMissingOrGarbageKeyIsAUsageErrorSayingWhatToDo() throws {
        let missing = try ToolProcess.run(["plugin", "publish", "x.tar", "--feed", folder.path, "--key", folder.appendingPathComponent("none.key").path])
        #expect(missing.status == 2)
        #expect(missing.error.contains("Make one with 'componentctl plugin keygen'"))
        let garbage = folder.appendingPathComponent("garbage.key")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a key".utf8).write(to: garbage)
        let refused = try ToolProcess.run(["plugin", "verify", folder.path, "--key", garbage.path])
        #expect(refused.status == 2)
        #expect(refused.error.contains("That is no plugin signing key"))
    }

    @Test func verifyTellsAFolderThatIsNoFeedAndAFileThatIsNoArchive() throws {
        let key = folder.appendingPathComponent("k.key")
        _ = try ToolProcess.run(["plugin", "keygen", "--key", key.path])
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noFeed = try ToolProcess.run(["plugin", "verify", empty.path, "--key", key.path])
        #expect(noFeed.status == 2)
        #expect(noFeed.error.contains("holds no index.json: it is no plugin feed"))
        let file = folder.appendingPathComponent("x.tar")
        try Data("garbage".utf8).write(to: file)
        let notArchive = try ToolProcess.run(["plugin", "verify", file.path, "--key", key.path])
        #expect(notArchive.status == 1)
        #expect(notArchive.error.contains("Refused: the archive is truncated"))
    }

    @Test func packRefusesWhatIsNoRuntimePlugin() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        let key = folder.appendingPathComponent("k.key")
        _ = try ToolProcess.run(["plugin", "keygen", "--key", key.path])
        let result = try ToolProcess.run(["plugin", "pack", "ribbon", "1.0.0", "--key", key.path, "--root", scratch.root.path])
        #expect(result.status == 2)
        #expect(result.error.contains("'ribbon' is no runtime plugin. Mark a plugin component as shipped at run time with 'runtime: true'"))
    }

    @Test func packRefusesAPreReleaseBeforeBuildingAnything() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addRuntimePlugin("Glitter", source: "func wire(_ router: Router) throws { try router.register(\"app://glitter/:name\") { _ in nil } }\n")
        try scratch.commitAsNewRepository()
        #expect(try ToolProcess.run(["release", "glitter", "2.0.0-beta.1", "--root", scratch.root.path]).status == 0)
        let key = folder.appendingPathComponent("k.key")
        _ = try ToolProcess.run(["plugin", "keygen", "--key", key.path])
        let pack = try ToolProcess.run(["plugin", "pack", "glitter", "2.0.0-beta.1", "--key", key.path, "--root", scratch.root.path])
        #expect(pack.status == 2)
        #expect(pack.error.contains("'2.0.0-beta.1' is no version a runtime plugin can ship"), "\(pack.error)")
    }

}
