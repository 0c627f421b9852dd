import ComponentKit
import Foundation
import PluginFeed
import Testing
import TestSupport

/// `kill -9` at random moments of `plugin pack`, `plugin publish` and `sign`: what they write is there whole or not
/// at all, no temporary is left, and the next run succeeds. (pin, unpin, release, sync, remove and new have theirs in
/// Scripts/fault-injection.sh.)
@Suite struct KillTrialTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-kills-\(UUID().uuidString)")

    /// Runs componentctl with `arguments` and kills it with SIGKILL after `delay` seconds, unless it ended before.
    private func killed(_ arguments: [String], after delay: TimeInterval) throws {
        let process = Process()
        process.executableURL = try ToolProcess.binary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["COMPONENTCTL_CACHE": "off"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Every file under `url` but the keys', by path: temporaries show as paths of their own.
    private func files(_ url: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in (FileManager.default.subpaths(atPath: url.path) ?? []).sorted() {
            if let data = FileManager.default.contents(atPath: url.appendingPathComponent(path).path) { files[path] = data }
        }
        return files
    }

    private func key() throws -> URL {
        let key = folder.appendingPathComponent("keys/signing.key")
        try FileManager.default.createDirectory(at: key.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(PluginSigningKey().fileContents.utf8).write(to: key)
        return key
    }

    private func archive(_ version: String, key: URL) throws -> URL {
        let url = folder.appendingPathComponent("archives/badge-\(version).tar")
        try PluginArchiveFixture.write(
            version: version, library: Data(repeating: UInt8(version.count), count: 200_000),
            signer: try PluginSigningKey(fileContents: try String(contentsOf: key, encoding: .utf8)), to: url)
        return url
    }

    @Test func aKilledPublishLeavesTheFeedAsBeforeOrAsAfter() throws {
        let key = try key()
        let archives = try ["1.0.0", "1.1.0", "1.2.0"].map { try archive($0, key: key) }
        let base = folder.appendingPathComponent("base-feed")
        #expect(try ToolProcess.run(["plugin", "publish", archives[0].path, "--feed", base.path, "--key", key.path]).status == 0)
        let expected = folder.appendingPathComponent("expected-feed")
        try FileManager.default.copyItem(at: base, to: expected)
        let start = Date()
        #expect(try ToolProcess.run(["plugin", "publish", archives[1].path, archives[2].path, "--feed", expected.path, "--key", key.path]).status == 0)
        // The kills spread over one whole run, and a little past it.
        let span = Date().timeIntervalSince(start) * 1.2
        let (before, after) = (files(base), files(expected))
        for trial in 0..<24 {
            let feed = folder.appendingPathComponent("feed-\(trial)")
            try FileManager.default.copyItem(at: base, to: feed)
            try killed(["plugin", "publish", archives[1].path, archives[2].path, "--feed", feed.path, "--key", key.path], after: span * Double(trial) / 23)
            let now = files(feed)
            // The index and its signature are the old pair or the new; or the new index waits for its signature beside
            // it, which the next publish puts in place.
            let verified = try ToolProcess.run(["plugin", "verify", feed.path, "--key", key.path])
            #expect(verified.status == 0 || verified.error.contains("publish again (any archive) to complete it"), "trial \(trial): \(verified.error)")
            let published = now.filter { !$0.key.hasPrefix(".") && !$0.key.hasSuffix(".tmp") }
            #expect(published.allSatisfy { before[$0.key] == $0.value || after[$0.key] == $0.value }, "trial \(trial) left a file in between")
            #expect(try ToolProcess.run(["plugin", "publish", archives[1].path, archives[2].path, "--feed", feed.path, "--key", key.path]).status == 0)
            #expect(files(feed).filter { !$0.key.hasPrefix(".") } == after.filter { !$0.key.hasPrefix(".") }, "the next run completes it")
            #expect(files(feed).keys.allSatisfy { !$0.hasSuffix(".tmp") }, "trial \(trial): the next run left a temporary")
        }
    }

    @Test func aKilledSignLeavesEachSignatureWholeOrAbsent() throws {
        let key = try key()
        let signing = try PluginSigningKey(fileContents: try String(contentsOf: key, encoding: .utf8))
        let documents = try (0..<3).map { index in
            let url = folder.appendingPathComponent("remote/layout-\(index).json")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{\"sequence\": \(index)}".utf8).write(to: url)
            return url
        }
        let start = Date()
        #expect(try ToolProcess.run(["sign"] + documents.map(\.path) + ["--key", key.path]).status == 0)
        let span = Date().timeIntervalSince(start) * 1.2
        for trial in 0..<24 {
            for document in documents { try? FileManager.default.removeItem(at: document.appendingPathExtension("sig")) }
            try killed(["sign"] + documents.map(\.path) + ["--key", key.path], after: span * Double(trial) / 23)
            for document in documents {
                let signature = document.appendingPathExtension("sig")
                guard let bytes = FileManager.default.contents(atPath: signature.path) else { continue }
                #expect(bytes == (try signing.sign(try Data(contentsOf: document))), "trial \(trial): \(signature.lastPathComponent) is not whole")
            }
            #expect(try ToolProcess.run(["sign"] + documents.map(\.path) + ["--key", key.path]).status == 0)
            #expect(files(folder.appendingPathComponent("remote")).keys.allSatisfy { !$0.hasSuffix(".tmp") }, "trial \(trial): the next run left a temporary")
        }
    }

    @Test(.tags(.buildsPackages), .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
    func aKilledPackLeavesNoHalfArchiveAndTheNextPackSucceeds() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addRuntimePlugin(
            "Glitter",
            source: """
                struct Router { func register(_ pattern: String, _ handler: (String) -> String?) throws {} }
                func wire(_ router: Router) throws { try router.register("app://glitter/:name") { _ in nil } }

                @_cdecl("glitter_plugin_entry")
                public func glitterPluginEntry() -> UnsafeMutableRawPointer? { nil }

                """)
        try scratch.commitAsNewRepository()
        #expect(try ToolProcess.run(["--root", scratch.root.path, "release", "glitter", "1.0.0"]).status == 0)
        let key = try key()
        let output = folder.appendingPathComponent("archives")
        let pack = ["--root", scratch.root.path, "plugin", "pack", "glitter", "1.0.0", "--key", key.path, "--output", output.path]
        let first = try ToolProcess.run(pack)
        #expect(first.status == 0, "\(first.error)")
        let archive = output.appendingPathComponent("glitter-1.0.0.tar")
        let keyFile = try PluginSigningKey(fileContents: try String(contentsOf: key, encoding: .utf8))
        let tracked = try scratch.git("status", "--porcelain")
        for trial in 0..<10 {
            try FileManager.default.removeItem(at: archive)
            try killed(pack, after: 0.05 + Double(trial) * 0.25)
            if let bytes = FileManager.default.contents(atPath: archive.path) {
                #expect((try? VerifiedPlugin(archive: bytes, keys: try TrustedKeys([keyFile.publicKey]))) != nil, "trial \(trial): a half archive")
            }
            #expect(files(output).keys.allSatisfy { !$0.hasSuffix(".tmp") }, "trial \(trial) left a temporary")
            let again = try ToolProcess.run(pack)
            #expect(again.status == 0, "trial \(trial): the next pack failed: \(again.error)")
            #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("Packages/.pack-glitter-1.0.0").path))
            #expect(try scratch.git("status", "--porcelain") == tracked)
        }
    }
}
