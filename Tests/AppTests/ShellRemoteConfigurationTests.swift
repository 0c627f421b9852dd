import Foundation
import Testing

/// Documents served from a URL (NOTES_REMOTE_CONFIG names them and the keys they are signed with): the
/// degrade table, and a module's own document (the fixture's banner) it reads through `RemoteDocuments`.
/// A signed, newer copy is taken; whatever else a server sends, the last good copy stays.
@Suite struct ShellRemoteConfigurationTests {
    /// The fixture app with the banner, its folder, and the folder the loopback server serves.
    private let app = InProcessApp(ShellFixture.definition(adding: [ShellFixture.BannerModule()]))
    private var served: URL { app.folder.appendingPathComponent("served") }

    /// Writes the banner and the degrade table of `sequence` into the served folder and signs them (with
    /// `key`, else the trusted test key; not at all when `signed` is false).
    private func publish(_ text: String, sequence: Int, signed: Bool = true, key: URL? = nil) throws {
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let banner = served.appendingPathComponent("notes-banner.json"), degrade = served.appendingPathComponent("degrade.json")
        try Data(#"{"sequence": \#(sequence), "text": "\#(text)"}"#.utf8).write(to: banner)
        try Data(
            #"{"sequence": \#(sequence), "rules": [{"pattern": "myapp://notes/<int:id>", "target": "https://m.notes.example/\#(sequence)/n/{id}"}]}"#.utf8
        ).write(to: degrade)
        for file in [banner, degrade] {
            try? FileManager.default.removeItem(at: file.appendingPathExtension("sig"))
            if signed { _ = try AppProcess.componentctl(["sign", file.path, "--key", (key ?? TestSigningKey.shared.get().file).path]) }
        }
    }

    /// The app with a remote configuration naming both files on `server`.
    private func configured(_ server: FeedServer) throws -> InProcessApp {
        let key = try TestSigningKey.shared.get().publicKey
        let config = try app.write(
            #"{"notes-banner": "\#(server.url)notes-banner.json", "degrade-table": "\#(server.url)degrade.json", "keys": ["\#(key)"], "timeout": 1}"#,
            to: "remote-config.json")
        var remote = app
        remote.environment["NOTES_REMOTE_CONFIG"] = config.path
        return remote
    }

    /// What the app shows: the banner's line, where note 3 goes, and what it logged.
    private func shown(_ app: InProcessApp) async -> (banner: String, note: String, log: String) {
        let banner = await app.run(["open", "myapp://banner"])
        let note = await app.run(["open", "myapp://notes/3"])
        let line = banner.output.split(separator: "\n").first { $0.contains("anner") && !$0.hasPrefix("==") }.map(String.init) ?? ""
        return (line, note.output, banner.errors + note.errors)
    }

    @Test func aSignedDocumentServedFromAURLReachesTheModuleThatReadsItAndTheDegradeTableApplies() async throws {
        defer { app.remove() }
        #expect((await shown(app)).banner == "No banner is served.", "the shipped configuration serves nothing")
        try publish("Morning", sequence: 1)
        let server = try FeedServer(served)
        defer { server.stop() }
        let remote = try configured(server)
        let first = await shown(remote)
        #expect(first.banner == "Banner: Morning from \(server.url)notes-banner.json (sequence 1)", "\(first.banner) \(first.log)")
        #expect(first.note.contains("The web container shows https://m.notes.example/1/n/3"), "\(first.note)")
        _ = await shown(remote)
        #expect(server.answers.contains { $0.status == 304 && $0.path == "/notes-banner.json" }, "an unchanged file is not sent again: \(server.answers)")
        // A variable names a document's URL instead of the configuration file.
        try publish("Noon", sequence: 2)
        var renamed = remote
        try FileManager.default.copyItem(at: served.appendingPathComponent("notes-banner.json"), to: served.appendingPathComponent("other.json"))
        try FileManager.default.copyItem(at: served.appendingPathComponent("notes-banner.json.sig"), to: served.appendingPathComponent("other.json.sig"))
        renamed.environment["NOTES_NOTES_BANNER_URL"] = server.url + "other.json"
        #expect((await shown(renamed)).banner == "Banner: Noon from \(server.url)other.json (sequence 2)")
    }

    @Test func aCopyThatIsOlderUnsignedOrTamperedIsRefusedAndTheLastGoodCopyStays() async throws {
        defer { app.remove() }
        try publish("Two", sequence: 2)
        var server = try FeedServer(served)
        defer { server.stop() }
        #expect((try await shown(configured(server))).banner.hasPrefix("Banner: Two from"))
        let cases: [(String, () throws -> Void, String)] = [
            ("older", { try publish("One", sequence: 1) }, "older (sequence 1) than one this App has already seen (sequence 2)"),
            ("unsigned", { try publish("Three", sequence: 3, signed: false) }, "the server answered 404"),
            ("another key", { try publish("Three", sequence: 3, key: try TestSigningKey().file) }, "which this app does not trust"),
            (
                "tampered",
                {
                    try publish("Three", sequence: 3)
                    for name in ["notes-banner.json", "degrade.json"] {
                        let file = served.appendingPathComponent(name)
                        let text = try String(contentsOf: file, encoding: .utf8)
                        try text.replacingOccurrences(of: "Three", with: "Evil").replacingOccurrences(of: "/3/n/", with: "/6/n/").write(
                            to: file, atomically: true, encoding: .utf8)
                    }
                }, "does not match its contents"
            ),
        ]
        for (name, make, reason) in cases {
            try make()
            let after = try await shown(configured(server))
            #expect(after.banner.hasPrefix("Banner: Two from"), "\(name): \(after.banner)")
            #expect(after.note.contains("https://m.notes.example/2/n/3"), "\(name): \(after.note)")
            #expect(after.log.contains("warning: remote configuration file not taken; the last good copy stays"), "\(name): \(after.log)")
            #expect(after.log.contains(reason), "\(name): \(after.log)")
        }
        // Servers that fail keep the copy the App has too.
        for mode in ["500", "html", "truncate-all"] {
            server.stop()
            server = try FeedServer(served, mode: mode)
            let during = try await shown(configured(server))
            #expect(during.banner.hasPrefix("Banner: Two from"), "\(mode): \(during.banner)")
            #expect(during.note.contains("https://m.notes.example/2/n/3"), "\(mode): \(during.note)")
            #expect(during.log.contains("remote configuration file not taken; the last good copy stays"), "\(mode): \(during.log)")
        }
        server.stop()
        server = try FeedServer(served)
        try publish("Four", sequence: 4)
        let newer = try await shown(configured(server))
        #expect(newer.banner.hasPrefix("Banner: Four from"), "a newer signed copy is taken: \(newer.log)")
        #expect(newer.note.contains("https://m.notes.example/4/n/3"))
    }

    @Test func aNewCopyIsTakenWhenTheAppComesBackToTheForeground() async throws {
        defer { app.remove() }
        try publish("Morning", sequence: 1)
        let server = try FeedServer(served)
        defer { server.stop() }
        let remote = try configured(server)
        let run = await remote.run([], input: ["myapp://banner", "background", "foreground", "myapp://banner", "myapp://notes/3", "quit"]) { line in
            if line == "foreground" { try? publish("Evening", sequence: 2) }
        }
        #expect(run.status == 0)
        let morning = try #require(run.output.range(of: "Banner: Morning from"), "\(run.output)")
        let evening = try #require(run.output.range(of: "Banner: Evening from"), "\(run.output) \(run.errors)")
        #expect(morning.upperBound <= evening.lowerBound)
        #expect(run.output.contains("The web container shows https://m.notes.example/2/n/3"), "the new degrade table applies at once")
    }

    @Test func aRemoteConfigurationTheAppCannotUseStopsItWithTheReason() async throws {
        defer { app.remove() }
        let key = try TestSigningKey.shared.get().publicKey
        for (text, reason) in [
            ("{not json", "is not valid"),
            (#"{"notes-banner": "http://127.0.0.1:9/banner.json", "keys": []}"#, "serves files from URLs but trusts no key"),
            (#"{"notes-banner": "ftp://example.com/banner.json", "keys": ["\#(key)"]}"#, "is no http://, https:// or file:// URL"),
            (#"{"notes-banner": "http://127.0.0.1:9/banner.json", "keys": ["not a key"]}"#, "is no Ed25519 public key"),
            (#"{"Notes_Banner": "http://127.0.0.1:9/banner.json", "keys": ["\#(key)"]}"#, "a document's name is lower kebab case"),
        ] {
            var app = self.app
            app.environment["NOTES_REMOTE_CONFIG"] = try app.write(text, to: "remote-config-\(UUID().uuidString).json").path
            let run = await app.run(["open", "myapp://banner"])
            #expect(run.status == 2, "\(text)")
            #expect(run.errors.contains("error: the app cannot start: "), "\(text): \(run.errors)")
            #expect(run.errors.contains(reason), "\(text): \(run.errors)")
        }
    }
}
