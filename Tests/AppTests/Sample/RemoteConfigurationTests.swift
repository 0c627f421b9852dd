import Foundation
import Testing

/// The home layout and the degrade table served from a URL: signed copies are taken, conditional requests
/// save the download, and whatever a server does wrong, the last good copy is what the App uses.
@Suite(.serialized, .requires("home", "product"))
struct RemoteConfigurationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remote-config-\(UUID().uuidString)")
    var served: URL { folder.appendingPathComponent("served") }

    /// Writes `layout` and `degrade` into the served folder and signs them (with `key`, the trusted one by default).
    private func publish(title: String, sequence: Int, signed: Bool = true, key: URL? = nil) throws {
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let layout = served.appendingPathComponent("home-layout.json"), degrade = served.appendingPathComponent("degrade.json")
        try Data(#"{"title": "\#(title)", "sequence": \#(sequence), "sections": [{"kind": "banner", "text": "\#(title)"}]}"#.utf8).write(to: layout)
        try Data(
            #"{"sequence": \#(sequence), "rules": [{"pattern": "shop://product/<int:id>", "target": "https://m.shop.example/\#(sequence)/p/{id}"}]}"#.utf8
        ).write(to: degrade)
        for file in [layout, degrade] {
            try? FileManager.default.removeItem(at: file.appendingPathExtension("sig"))
            if signed { _ = try AppProcess.componentctl(["sign", file.path, "--key", (key ?? TestSigningKey.shared.get().file).path]) }
        }
    }

    /// An App whose remote configuration names the two files on `server`.
    private func app(_ server: FeedServer, data: URL) throws -> AppProcess {
        let config = folder.appendingPathComponent("remote-config-\(UUID().uuidString).json")
        let key = try TestSigningKey.shared.get().publicKey
        try Data(#"{"home-layout": "\#(server.url)home-layout.json", "degrade-table": "\#(server.url)degrade.json", "keys": ["\#(key)"], "timeout": 1}"#.utf8)
            .write(to: config)
        var app = AppProcess(dataDirectory: data)
        app.environment["SHOP_REMOTE_CONFIG"] = config.path
        return app
    }

    /// What the App shows: the home screen's title and where product 3 goes.
    private func shown(_ app: AppProcess) throws -> (home: String, product: String, log: String) {
        let home = try app.run(["open", "shop://home"])
        let product = try app.run(["open", "shop://product/3"])
        return (home.output.split(separator: "\n").first.map(String.init) ?? "", product.output, home.error + product.error)
    }

    @Test func signedNewerCopiesAreTakenAndTheLastGoodCopyOutlivesEveryFault() throws {
        let data = folder.appendingPathComponent("data")
        try publish(title: "Remote two", sequence: 2)
        var server = try FeedServer(served)
        defer { server.stop() }
        let first = try shown(try app(server, data: data))
        #expect(first.home == "== Remote two ==")
        #expect(first.product.contains("The web container shows https://m.shop.example/2/p/3"))
        _ = try shown(try app(server, data: data))
        #expect(server.answers.contains { $0.status == 304 && $0.path == "/home-layout.json" }, "an unchanged file is not sent again: \(server.answers)")

        // Servers that fail: down to the bone, the copy the App has stays.
        for mode in ["stall-all", "trickle-all", "500", "truncate-all", "html"] {
            server.stop()
            server = try FeedServer(served, mode: mode)
            let during = try shown(try app(server, data: data))
            #expect(during.home == "== Remote two ==", "\(mode)")
            #expect(during.product.contains("https://m.shop.example/2/p/3"), "\(mode)")
            #expect(during.log.contains("remote configuration file not taken; the last good copy stays"), "\(mode): \(during.log)")
            if mode.hasPrefix("trickle") || mode.hasPrefix("stall") {
                #expect(during.log.contains("timed out"), "the whole fetch has the configured timeout: \(during.log)")
            }
        }
        // The kept copy's own fields are no authority: lowering its recorded sequence lets no older copy in.
        let kept = data.appendingPathComponent("remote-config/home-layout.json")
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: kept)) as? [String: Any])
        record["sequence"] = 0
        try JSONSerialization.data(withJSONObject: record).write(to: kept)
        server.stop()
        server = try FeedServer(served)
        // Copies that must not be taken: older, unsigned, signed by another key, tampered with after signing.
        let cases: [(String, () throws -> Void, String)] = [
            ("older", { try publish(title: "Remote one", sequence: 1) }, "older (sequence 1) than one this App has already seen (sequence 2)"),
            ("unsigned", { try publish(title: "Remote three", sequence: 3, signed: false) }, "the server answered 404"),
            (
                "another key",
                {
                    try publish(title: "Remote three", sequence: 3, key: try TestSigningKey().file)
                }, "which this app does not trust"
            ),
            (
                "tampered",
                {
                    try publish(title: "Remote three", sequence: 3)
                    let layout = served.appendingPathComponent("home-layout.json")
                    try (try String(contentsOf: layout, encoding: .utf8)).replacingOccurrences(of: "three", with: "evil").write(
                        to: layout, atomically: true, encoding: .utf8)
                }, "does not match its contents"
            ),
        ]
        for (name, make, reason) in cases {
            try make()
            let after = try shown(try app(server, data: data))
            #expect(after.home == "== Remote two ==", "\(name)")
            #expect(after.log.contains(reason), "\(name): \(after.log)")
        }
        // An unsigned file is never read: the signature is what fails, whatever the content.
        let layout = served.appendingPathComponent("home-layout.json")
        try Data("[1, 2]".utf8).write(to: layout)
        #expect(try shown(try app(server, data: data)).log.contains("does not match its contents"))
        // A signed file the App cannot use is refused too.
        for text in ["[1, 2]", #"{"title": "Remote five", "sequence": "5", "sections": []}"#, #"{"title": "Remote five", "sequence": 5.5, "sections": []}"#] {
            try Data(text.utf8).write(to: layout)
            _ = try AppProcess.componentctl(["sign", layout.path, "--key", try TestSigningKey.shared.get().file.path])
            let refused = try shown(try app(server, data: data))
            #expect(refused.home == "== Remote two ==", "\(text)")
            #expect(refused.log.contains("is no usable home-layout"), "\(text): \(refused.log)")
        }
        // And a newer signed copy is taken.
        try publish(title: "Remote four", sequence: 4)
        let newer = try shown(try app(server, data: data))
        #expect(newer.home == "== Remote four ==")
        #expect(newer.product.contains("https://m.shop.example/4/p/3"))
    }

    @Test func aNewCopyIsTakenWhenTheAppComesBackToTheForeground() throws {
        try publish(title: "Morning", sequence: 1)
        let server = try FeedServer(served)
        defer { server.stop() }
        let session = try AppSession(try app(server, data: folder.appendingPathComponent("data-foreground")))
        session.wait(for: "== Morning ==")
        try publish(title: "Evening", sequence: 2)
        try session.send("background")
        try session.send("foreground")
        session.wait(for: "== Evening ==")
        try session.send("shop://product/3")
        session.wait(for: "https://m.shop.example/2/p/3")
        #expect(try session.finish() == 0)
    }

    @Test func aRemoteConfigurationTheAppCannotUseStopsItWithTheReason() throws {
        let config = folder.appendingPathComponent("bad.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = try TestSigningKey.shared.get().publicKey
        for (text, reason) in [
            ("{not json", "the remote configuration \(config.path) is not valid"),
            (#"{"home-layout": "http://127.0.0.1:9/home.json", "keys": []}"#, "trusts no key"),
            (#"{"home-layout": "ftp://example.com/home.json", "keys": ["\#(key)"]}"#, "is no http://, https:// or file:// URL"),
            (#"{"home-layout": "http://127.0.0.1:9/home.json", "keys": ["not a key"]}"#, "is no Ed25519 public key"),
        ] {
            try Data(text.utf8).write(to: config)
            var app = AppProcess()
            app.environment["SHOP_REMOTE_CONFIG"] = config.path
            let run = try app.run(["open", "shop://home"])
            #expect(run.status == 2, "\(text)")
            #expect(run.error.contains(reason), "\(text): \(run.error)")
        }
    }
}
