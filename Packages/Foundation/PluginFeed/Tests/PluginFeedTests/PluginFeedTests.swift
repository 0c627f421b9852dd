import Foundation
import PluginFeed
import Testing

@Suite struct PluginFeedTests {
    let key = PluginSigningKey()
    var keys: TrustedKeys { get throws { try TrustedKeys([key.publicKey]) } }
    let library = Data((0..<3000).map { UInt8($0 % 251) })

    func manifest(library: Data) -> PluginManifest {
        PluginManifest(
            id: "banner", version: "1.2.0", entry: "banner_plugin_entry", library: "libBanner.so", sha256: Digest.sha256(library), size: library.count,
            contributions: [.init(point: "shelf-interface/badges", plugin: "banner")], routes: ["app://banner/<name>"],
            hostAPI: ["router": "1.0.0"], hostKeys: ["router": "aaaa"], swift: "6.3.1", swiftRuntime: "abc")
    }

    func archive(manifest: PluginManifest? = nil, library: Data? = nil, signer: PluginSigningKey? = nil) throws -> Data {
        let manifestData = try (manifest ?? self.manifest(library: self.library)).encoded()
        return try PluginArchive(files: [
            PluginArchive.manifestName: manifestData, PluginArchive.signatureName: try (signer ?? key).sign(manifestData),
            "libBanner.so": library ?? self.library,
        ]).encoded()
    }

    @Test func aSignedArchiveVerifiesAndTarReadsIt() throws {
        let data = try archive()
        let plugin = try VerifiedPlugin(archive: data, keys: keys)
        #expect(plugin.manifest == manifest(library: library))
        #expect(plugin.library == library)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try data.write(to: folder.appendingPathComponent("a.tar"))
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xf", "a.tar"]
        tar.currentDirectoryURL = folder
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("libBanner.so")) == library)
    }

    @Test func aNameInTheUstarPrefixFieldIsRefused() throws {
        var data = try archive()
        // The first header's prefix field (offset 345, 155 bytes), then its checksum again (spaces while summed).
        for (offset, byte) in "evil".utf8.enumerated() { data[345 + offset] = byte }
        for offset in 148..<156 { data[offset] = 32 }
        let sum = data.prefix(512).reduce(0) { $0 + Int($1) }
        for (offset, byte) in (String(sum, radix: 8).leftPadded(to: 6) + "\0 ").utf8.enumerated() { data[148 + offset] = byte }
        let error = #expect(throws: FeedError.self) { try PluginArchive(decoding: data) }
        #expect(error?.message.contains("names 'evil/") == true, "\(String(describing: error))")
        #expect(error?.message.contains("ustar prefix field") == true)
    }

    @Test func aListOfManyExtraFilesIsCappedInTheMessage() throws {
        let manifestData = try manifest(library: library).encoded()
        var files = [PluginArchive.manifestName: manifestData, PluginArchive.signatureName: try key.sign(manifestData), "libBanner.so": library]
        for index in 0..<1000 { files["extra-\(index)"] = Data() }
        let error = #expect(throws: FeedError.self) { try VerifiedPlugin(archive: try PluginArchive(files: files).encoded(), keys: keys) }
        #expect(error?.message.contains("and 990 more") == true)
        #expect((error?.message.count ?? .max) < 400, "\(String(describing: error))")
    }

    @Test func theSameFilesMakeTheSameArchive() throws {
        #expect(try archive() == archive())
    }

    @Test func aChangedLibraryIsRefused() throws {
        var changed = library
        changed[10] ^= 1
        #expect(throws: FeedError.self) { try VerifiedPlugin(archive: try archive(library: changed), keys: keys) }
    }

    @Test func aManifestThatLiesAboutItsHashIsRefused() throws {
        var lying = manifest(library: library)
        lying.sha256 = String(repeating: "0", count: 64)
        let error = #expect(throws: FeedError.self) { try VerifiedPlugin(archive: try archive(manifest: lying), keys: keys) }
        #expect(error?.message.contains("SHA-256") == true)
    }

    @Test func anUnknownKeyAndAForgedSignatureAreRefusedWithTheirReason() throws {
        let unknown = #expect(throws: FeedError.self) { try VerifiedPlugin(archive: try archive(signer: PluginSigningKey()), keys: keys) }
        #expect(unknown?.message.contains("does not trust") == true)
        var files = try PluginArchive(decoding: try archive()).files
        files[PluginArchive.manifestName] = try manifest(library: library).encoded() + Data(" ".utf8)
        let forged = #expect(throws: FeedError.self) { try VerifiedPlugin(archive: try PluginArchive(files: files).encoded(), keys: keys) }
        #expect(forged?.message.contains("does not match") == true)
    }

    @Test func truncatedOrDamagedArchivesAreRefused() throws {
        let data = try archive()
        for length in [0, 100, 511, 600, data.count - 1100] {
            #expect(throws: FeedError.self) { try VerifiedPlugin(archive: data.prefix(length), keys: keys) }
        }
        var damaged = data
        damaged[3] ^= 0x20
        #expect(throws: FeedError.self) { try PluginArchive(decoding: damaged) }
    }

    @Test func namesThatCouldLeaveTheFolderCannotBeStored() throws {
        for name in ["../evil.so", "a/b.so", "..", ""] {
            #expect(throws: FeedError.self) { try PluginArchive(files: [name: Data()]).encoded() }
        }
    }

    @Test func compatibilityNeedsTheSameContentOfEachComponentAndTheSameRuntime() {
        let manifest = manifest(library: library)
        #expect(
            manifest.incompatibility(hostAPI: ["router": "1.0.0", "cart": "2.0.0"], hostKeys: ["router": "aaaa", "cart": "cccc"], swiftRuntime: "abc") == nil)
        // The content decides; the label is only said.
        #expect(manifest.incompatibility(hostAPI: ["router": "1.1.0"], hostKeys: ["router": "aaaa"], swiftRuntime: "abc") == nil)
        let changed = manifest.incompatibility(hostAPI: ["router": "1.0.0"], hostKeys: ["router": "bbbb"], swiftRuntime: "abc")
        #expect(changed?.contains("built against router 1.0.0 with content aaaa, the App has router 1.0.0 with content bbbb") == true)
        #expect(manifest.incompatibility(hostAPI: ["router": "1.0.0"], hostKeys: [:], swiftRuntime: "abc")?.contains("no content key of router") == true)
        #expect(manifest.incompatibility(hostAPI: [:], hostKeys: [:], swiftRuntime: "abc")?.contains("does not have") == true)
        #expect(manifest.incompatibility(hostAPI: ["router": "1.0.0"], hostKeys: ["router": "aaaa"], swiftRuntime: "def")?.contains("Swift 6.3.1") == true)
        var unkeyed = manifest
        unkeyed.hostKeys = nil
        #expect(unkeyed.incompatibility(hostAPI: ["router": "1.0.0"], hostKeys: ["router": "aaaa"], swiftRuntime: "abc")?.contains("pack it again") == true)
    }

    @Test func anIndexVerifiesOnlyWithItsSignature() throws {
        let release = FeedIndex.Release(
            version: "1.2.0", archive: "plugins/banner/banner-1.2.0.tar", size: 10, sha256: "x", manifest: manifest(library: library))
        let data = try FeedJSON.encode(FeedIndex(sequence: 3, plugins: ["banner": [release]]))
        let index = try FeedIndex.verified(data, signature: try key.sign(data), keys: keys)
        #expect(index.sequence == 3)
        #expect(index.release("banner", "1.2.0") == release)
        #expect(throws: FeedError.self) { try FeedIndex.verified(data, signature: try PluginSigningKey().sign(data), keys: keys) }
        var escaping = release
        escaping.archive = "../../etc/passwd"
        let bad = try FeedJSON.encode(FeedIndex(sequence: 3, plugins: ["banner": [escaping]]))
        #expect(throws: FeedError.self) { try FeedIndex.verified(bad, signature: try key.sign(bad), keys: keys) }
        var evil = release
        evil.manifest.library = "../../evil.so"
        let listed = try FeedJSON.encode(FeedIndex(sequence: 3, plugins: ["banner": [evil]]))
        let error = #expect(throws: FeedError.self) { try FeedIndex.verified(listed, signature: try key.sign(listed), keys: keys) }
        #expect(error?.message.contains("names the library '../../evil.so', which is no plain file name") == true, "refused when listed, not at install")
        var negative = release
        negative.manifest.size = -1
        let sized = try FeedJSON.encode(FeedIndex(sequence: 3, plugins: ["banner": [negative]]))
        let sizeError = #expect(throws: FeedError.self) { try FeedIndex.verified(sized, signature: try key.sign(sized), keys: keys) }
        #expect(sizeError?.message.contains("gives the library's size as -1 bytes") == true)
    }

    @Test func bytesThatAreNoJSONAreDescribed() {
        for (bytes, expected) in [
            ("<!DOCTYPE html><html><body>Not found</body></html>", "not JSON but an HTML page"), ("", "not JSON (it is empty)"),
            ("PK\u{3}\u{4} zipped", "not JSON (it starts with 'PK?? zipped')"),
        ] {
            let error = #expect(throws: FeedError.self) { _ = try FeedJSON.decode(Data(bytes.utf8), what: "the feed's index") as FeedIndex }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
    }

    @Test func aKeyFileRoundTripsAndGarbageIsRefused() throws {
        let copy = try PluginSigningKey(fileContents: key.fileContents)
        #expect(copy.publicKey == key.publicKey)
        #expect(throws: FeedError.self) { try PluginSigningKey(fileContents: "hello") }
        #expect(throws: FeedError.self) { try TrustedKeys(["not-a-key"]) }
    }
}

@Test func theSwiftRuntimeIsKnownByItsGNUBuildID() throws {
    // The toolchain's, found beside the `swift` on the PATH.
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let core = try #require(
        path.split(separator: ":").map {
            URL(fileURLWithPath: String($0)).deletingLastPathComponent().appendingPathComponent("lib/swift/linux/libswiftCore.so")
        }
        .first { FileManager.default.fileExists(atPath: $0.path) })
    let identity = try RuntimeIdentity.of(library: core)
    #expect(identity.hasPrefix("gnu-build-id:"))
    let readelf = Process()
    readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    readelf.arguments = ["readelf", "-n", core.path]
    let output = Pipe()
    readelf.standardOutput = output
    try readelf.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    readelf.waitUntilExit()
    #expect(text.contains("Build ID: " + identity.dropFirst("gnu-build-id:".count)))
    let plain = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString)")
    try Data("no ELF".utf8).write(to: plain)
    #expect(try RuntimeIdentity.of(library: plain) == "sha256:" + Digest.sha256(Data("no ELF".utf8)))
}

@Test func aVersionIsThreePlainNumbersSpeltOneWay() {
    #expect(PluginVersion("1.2.0")?.parts == [1, 2, 0])
    #expect(PluginVersion("0.10.3")! < PluginVersion("1.0.0")!)
    for text in ["01.2.0", "+1.2.0", "1.2", "1.2.0.0", "1.2.0-beta.1", "v1.2.0", "1..0", " 1.2.0", "1.2.x", "1234567890.0.0"] {
        #expect(PluginVersion(text) == nil, "\(text)")
    }
}

extension String {
    /// The string with zeros in front, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
