import Foundation
import PluginFeed
import Testing

/// Released and packed versions of the sample's runtime plugin, made once per test run in a clone of
/// the workspace with the real `componentctl release` and `componentctl plugin pack`:
/// 1.0.0 as written, 1.1.0 with 20% off, 1.2.0 that crashes the App while loading, 1.3.0 that registers
/// a route its manifest does not declare, 1.4.0 built against router 1.1.0 (its manifest then given another
/// content key of router, re-signed: a host API the App lacks), and
/// 1.5.0 with 15% off that misbehaves as `CAMPAIGN_ATTACK` says (``Attack``). A 1.6.0 that declares a
/// literal route of the User module's sign-in is released but refused by pack and by check-layers. 1.7.0 is
/// released after Money gained a stored property while models still says 1.0.0: refused by pack once
/// models@1.0.0 names the content before the change, and its archive is what pack wrote before that tag
/// existed (the changed models' content key in its signed manifest; 1.0.0's library, never loaded).
final class RuntimePluginFixture: Sendable {
    static let shared = Result { try RuntimePluginFixture() }

    /// The workspace clone, its feed-less archives, and the keys.
    let folder: URL
    let archives: URL
    let key: URL
    let publicKey: String
    let otherKey: URL
    /// What `plugin pack` and `check-layers` said of 1.6.0, whose route shadows the sign-in route.
    let shadowRefusals: (pack: Refusal, check: Refusal)
    /// What `plugin pack` said of 1.7.0 once models@1.0.0 named the content before Money changed.
    let unreleasedRefusal: Refusal

    /// What 1.5.0 does wrong when the App runs with `CAMPAIGN_ATTACK` set to the raw value.
    enum Attack: String {
        /// While loading, removes the User module's sign-in route and registers it again as 'user' (ignoring refusals).
        case takeover
        /// While loading, adds an interceptor that would see every in-app URL (ignoring the refusal).
        case interceptor
        /// In its page's handler, registers `shop://cart/free` for 'cart': after its load.
        case late
        /// Crashes in its page's handler.
        case crashPage = "crash-page"
        /// While loading, provides a service (no runtime plugin may).
        case service
        /// Its module hears the links the App receives (and could claim or rewrite them).
        case openURL = "open-url"
        /// Its module is named 'user'.
        case moduleName = "module-name"
        /// Its module's priority crashes when the App reads it.
        case crashGetter = "crash-getter"
    }

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-plugins-\(UUID().uuidString)")
        let clone = folder.appendingPathComponent("workspace")
        archives = folder.appendingPathComponent("archives")
        key = folder.appendingPathComponent("keys/trusted.key")
        otherKey = folder.appendingPathComponent("keys/other.key")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.run("/usr/bin/env", ["git", "clone", "-q", AppProcess.root.path, clone.path])
        for setting in [["user.email", "tests@example.com"], ["user.name", "Tests"]] {
            try Self.run("/usr/bin/env", ["git", "-C", clone.path, "config"] + setting)
        }
        publicKey = try Self.keygen(key)
        _ = try Self.keygen(otherKey)
        let source = clone.appendingPathComponent("Packages/Plugins/Campaign/Sources/Campaign/CampaignPlugin.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        let versions: [(String, (String) -> String)] = [
            ("1.0.0", { $0 }),
            ("1.1.0", { $0.replacingOccurrences(of: "percentOff: 10", with: "percentOff: 20") }),
            (
                "1.2.0",
                {
                    $0.replacingOccurrences(
                        of: "    RuntimePluginExport(definitions:", with: "    fatalError(\"broken release\")\n    RuntimePluginExport(definitions:")
                }
            ),
            (
                "1.3.0",
                {
                    // A pattern built at run time: componentctl cannot read it, so the manifest does not declare it.
                    $0.replacingOccurrences(
                        of: "        let services = context.services\n",
                        with: "        let services = context.services\n        try context.router.register(\"shop:\" + \"//sneaky\", owner: id) { _ in nil }\n"
                    )
                }
            ),
        ]
        for (version, edit) in versions {
            try edit(original).write(to: source, atomically: true, encoding: .utf8)
            try Self.release(version, in: clone, key: key, archives: archives)
        }
        // The host API moves on: router 1.1.0, whose content the App under test does not have; then back for 1.5.0.
        let yaml = clone.appendingPathComponent("components.yaml")
        let router = (old: "    layer: foundation\n    version: 1.0.0\n  screen-kit:", new: "    layer: foundation\n    version: 1.1.0\n  screen-kit:")
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: router.old, with: router.new).write(to: yaml, atomically: true, encoding: .utf8)
        try original.write(to: source, atomically: true, encoding: .utf8)
        try Self.release("1.4.0", in: clone, key: key, archives: archives)
        // Router's content under 1.1.0, as its signed manifest records it: packing against a real change of router would
        // build every package above router twice (there and back), for a refusal that comes before the library is read.
        try Self.rewriteManifest(of: archives.appendingPathComponent("campaign-1.4.0.tar"), key: key) {
            $0.hostKeys?["router"] = String(repeating: "1a", count: 32)
        }
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: router.new, with: router.old).write(to: yaml, atomically: true, encoding: .utf8)
        try Self.hostile(original).write(to: source, atomically: true, encoding: .utf8)
        try Self.release("1.5.0", in: clone, key: key, archives: archives)
        // A literal the scanner reads, of the User module's sign-in route: never packed.
        try original.replacingOccurrences(
            of: "        let services = context.services\n",
            with: "        let services = context.services\n        try context.router.register(\"shop://user/login/alice\", owner: id) { _ in nil }\n"
        ).write(to: source, atomically: true, encoding: .utf8)
        try Self.run("/usr/bin/env", ["git", "-C", clone.path, "commit", "-qam", "Campaign 1.6.0"])
        try Self.componentctl(["release", "campaign", "1.6.0", "--root", clone.path])
        shadowRefusals = (
            try Self.refusal(["plugin", "pack", "campaign", "1.6.0", "--key", key.path, "--output", archives.path, "--root", clone.path]),
            try Self.refusal(["--root", clone.path, "check-layers"])
        )
        // Money gains a stored property under the same version: an ABI the App under test does not have.
        try original.write(to: source, atomically: true, encoding: .utf8)
        let head = try AppProcess.capture("/usr/bin/env", ["git", "-C", clone.path, "rev-parse", "HEAD"])
        let released = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let money = clone.appendingPathComponent("Packages/Foundation/Models/Sources/Models/Money.swift")
        try String(contentsOf: money, encoding: .utf8).replacingOccurrences(
            of: "    public var currency: String\n", with: "    public var currency: String\n    /// New, unreleased.\n    public var note = \"\"\n"
        ).write(to: money, atomically: true, encoding: .utf8)
        try Self.run("/usr/bin/env", ["git", "-C", clone.path, "commit", "-qam", "Campaign 1.7.0"])
        try Self.componentctl(["release", "campaign", "1.7.0", "--root", clone.path])
        try Self.run("/usr/bin/env", ["git", "-C", clone.path, "tag", "-a", "models@1.0.0", "-m", "Release models 1.0.0", released])
        unreleasedRefusal = try Self.refusal(["plugin", "pack", "campaign", "1.7.0", "--key", key.path, "--output", archives.path, "--root", clone.path])
        // What pack wrote before models@1.0.0 existed: models' content key as `hash --content` gives the changed Money, in a
        // signed manifest. The library is 1.0.0's (a build against the change would rebuild every package above models, for
        // a refusal that comes before the library is read).
        let changed = try Self.componentctl(["hash", "models", "--content", "--format", "key", "--root", clone.path])
        let unreleased = archives.appendingPathComponent("campaign-1.7.0.tar")
        try FileManager.default.copyItem(at: archives.appendingPathComponent("campaign-1.0.0.tar"), to: unreleased)
        try Self.rewriteManifest(of: unreleased, key: key) { manifest in
            manifest.version = "1.7.0"
            manifest.hostKeys?["models"] = changed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Changes the manifest of `archive` with `change` and signs it again with `key`.
    static func rewriteManifest(of archive: URL, key: URL, _ change: (inout PluginManifest) -> Void) throws {
        var files = try PluginArchive(decoding: try Data(contentsOf: archive)).files
        guard let data = files[PluginArchive.manifestName] else { throw FixtureError("\(archive.path) holds no manifest") }
        var manifest = try PluginManifest.decode(data, what: "manifest")
        change(&manifest)
        let manifestData = try manifest.encoded()
        files[PluginArchive.manifestName] = manifestData
        files[PluginArchive.signatureName] = try PluginSigningKey(fileContents: String(contentsOf: key, encoding: .utf8)).sign(manifestData)
        try PluginArchive(files: files).encoded().write(to: archive)
    }

    /// The campaign's source with an attack for each ``Attack``, chosen at run time, and 15% off.
    private static func hostile(_ original: String) -> String {
        original.replacingOccurrences(of: "percentOff: 10", with: "percentOff: 15")
            .replacingOccurrences(of: "import Synchronization\n", with: "import Glibc\nimport Synchronization\n")
            .replacingOccurrences(
                of: "        let services = context.services\n",
                with: """
                            let services = context.services
                            let attack = getenv("CAMPAIGN_ATTACK").map { String(cString: $0) }
                            // Patterns built at run time: componentctl cannot read them into the manifest.
                            let signIn = "shop:" + "//user/login/:userID"
                            if attack == "takeover" {
                                _ = try? context.router.unregister(signIn)
                                try? context.router.register(signIn, owner: "user") { _ in "stolen sign-in" }
                            }
                            if attack == "interceptor" { try? context.router.addInterceptor(CampaignSpy()) }
                            if attack == "service" { try? context.services.register(CampaignSpy.self, owner: id, instance: CampaignSpy()) }

                    """
            )
            .replacingOccurrences(of: "RuntimePluginExport(definitions:", with: "RuntimePluginExport(module: CampaignModule(), definitions:")
            .replacingOccurrences(
                of: "{ route, _ in\n",
                with: """
                    { route, _ in
                                if attack == "crash-page" { fatalError("the campaign page crashed") }
                                if attack == "late" { try context.router.register("shop:" + "//cart/free", owner: "cart") { _ in "free" } }

                    """
            )
                + """

                struct CampaignModule: AppModule {
                    let attack = getenv("CAMPAIGN_ATTACK").map { String(cString: $0) }
                    var name: String { attack == "module-name" ? "user" : "campaign" }
                    var priority: Int {
                        if attack == "crash-getter" { fatalError("the module's priority crashed") }
                        return 0
                    }
                    var events: Set<LifecycleEvent.Kind> { attack == "open-url" ? [.openURL] : [] }
                    func register(in context: ModuleContext) throws {}
                }

                struct CampaignSpy: RouteInterceptor {
                    var name: String { "campaign-spy" }
                    var priority: Int { 999 }
                    var scope: InterceptorScope { .all }
                    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async { decision.proceed() }
                }

                """
    }

    private static func release(_ version: String, in clone: URL, key: URL, archives: URL) throws {
        try run("/usr/bin/env", ["git", "-C", clone.path, "commit", "-qam", "Campaign \(version)", "--allow-empty"])
        try componentctl(["release", "campaign", version, "--root", clone.path])
        try componentctl(["plugin", "pack", "campaign", version, "--key", key.path, "--output", archives.path, "--root", clone.path])
    }

    /// The archive of `version`.
    func archive(_ version: String) -> URL { archives.appendingPathComponent("campaign-\(version).tar") }

    /// A new feed folder with `versions` published in order (by the trusted key unless `key` says otherwise).
    func feed(_ versions: [String], key: URL? = nil) throws -> URL {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        for version in versions { try publish(version, to: feed, key: key) }
        return feed
    }

    /// Publishes `version` into `feed`.
    func publish(_ version: String, to feed: URL, key: URL? = nil) throws {
        try Self.componentctl(["plugin", "publish", archive(version).path, "--feed", feed.path, "--key", (key ?? self.key).path])
    }

    /// The App's plugin configuration for `feed`, trusting the fixture's key: a file in `folder`.
    func configuration(feed: String, in folder: URL, timeout: Int = 3) throws -> URL {
        let file = folder.appendingPathComponent("plugin-feed.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"feed": "\#(feed)", "keys": ["\#(publicKey)"], "timeout": \#(timeout)}"#.utf8).write(to: file)
        return file
    }

    /// The trusted signing key, to forge feeds the publisher would never write.
    func signingKey() throws -> PluginSigningKey { try PluginSigningKey(fileContents: String(contentsOf: key, encoding: .utf8)) }

    private static func keygen(_ path: URL) throws -> String {
        let output = try componentctl(["plugin", "keygen", "--key", path.path])
        guard let line = output.split(separator: "\n").last else { throw FixtureError("keygen printed nothing") }
        return String(line)
    }

    @discardableResult
    static func componentctl(_ arguments: [String]) throws -> String {
        String(decoding: try AppProcess.componentctl(arguments), as: UTF8.self)
    }

    /// What a componentctl command that must fail printed, and its status; throws when it succeeded.
    static func refusal(_ arguments: [String]) throws -> Refusal {
        let process = Process()
        process.executableURL = AppProcess.root.appendingPathComponent("Tools/componentctl/.build/debug/componentctl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { throw FixtureError("componentctl \(arguments.joined(separator: " ")) succeeded:\n\(text)") }
        return Refusal(status: process.terminationStatus, output: text)
    }

    /// A command's failure.
    struct Refusal: Sendable {
        var status: Int32
        var output: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("\(arguments.joined(separator: " ")) failed") }
    }
}

extension AppProcess {
    /// An App process that uses `configuration` for its plugins.
    static func withPlugins(_ configuration: URL, data: URL? = nil) -> AppProcess {
        var app = data.map { AppProcess(dataDirectory: $0) } ?? AppProcess()
        app.environment["SHOP_PLUGIN_CONFIG"] = configuration.path
        return app
    }
}
