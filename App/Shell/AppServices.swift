import Foundation
import Logging
import PluginFeed
import Router
import ScreenKit
import Storage

/// Checks links from outside the app against the public keys the App trusts, and opens a one-time link
/// once: its nonce is kept in the database until the link expires.
struct SignedLinkVerifier: ExternalLinkVerifier {
    let verifier: LinkVerifier
    let used: StoredCollection<Date>

    func verify(_ url: RouteURL) throws {
        let claims = try verifier.verify(url.original)
        guard let nonce = claims.once else { return }
        var replayed = false
        _ = try used.update(nonce) { seen in
            replayed = seen != nil
            return seen ?? claims.expiry
        }
        if replayed { throw LinkSignatureError.replayed }
        // Nonces of expired links can go: those links are refused for their expiry anyway.
        for (nonce, expiry) in try used.all() where expiry < Date() { _ = try used.remove(nonce) }
    }
}

/// Logs every open that reaches a route (at `info`): first of all interceptors, and it never stops one.
struct LoggingInterceptor: RouteInterceptor {
    let name = "logging"
    let priority = 1_000
    let scope = InterceptorScope.all
    let logger: Logger

    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async {
        logger.info(
            "route", metadata: ["url": "\(request.url.original)", "origin": "\(request.origin.rawValue)", "owner": "\(request.owner ?? "-")"])
        decision.proceed()
    }
}

/// The shell's settings for one start, read once: the degrade table, the external link check and the web
/// fallback for links nothing opens.
struct ShellSettings: Sendable {
    /// The degrade table.
    var degradeTable: DegradeTable
    /// Where it came from, for messages.
    var degradeSource: String
    /// Checks links from outside the app.
    var linkVerifier: any ExternalLinkVerifier
    /// The web site that opens a business-scheme link nothing in the app opens, instead of "Page not found".
    var webBase: String?
    /// The app's own scheme: the links the web fallback takes.
    var scheme: String?
    /// The app's first screen, which the web page links to.
    var home: String?

    /// The settings of `app` under `environment`; throws naming the setting that cannot be used.
    init(environment: [String: String], app: AppDefinition, remote: RemoteConfiguration?, storage: Storage) throws {
        (degradeTable, degradeSource) = try AppSettings.degradeTable(environment: environment, app: app, remote: remote)
        linkVerifier = SignedLinkVerifier(
            verifier: LinkVerifier(keys: try AppSettings.linkKeys(environment: environment)), used: storage.collection("links.used-once"))
        scheme = app.scheme
        home = app.start
        let settings = AppSettings.moduleSettings(environment: environment, app: app)
        if let base = settings[AppSettings.webFallback], !base.isEmpty {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil, url.fragment == nil else {
                throw AppSettingError("\(AppSettings.webFallback) is '\(base)'; it takes the web site's address, like https://m.shop.example/")
            }
            webBase = base
        }
    }

    /// The web page of `url` when a web fallback is set and `url` is of the app's own scheme.
    func webFallback(for url: RouteURL) -> Screen? {
        guard let webBase, url.scheme == scheme else { return nil }
        return ShellScreens.webPage(AbsentFeatures.webAddress(url, base: webBase), home: home)
    }
}

/// A setting the App cannot start with.
struct AppSettingError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The App's settings from its environment.
enum AppSettings {
    /// The setting naming the web site of links nothing opens.
    static let webFallback = "SHOP_WEB_FALLBACK"

    /// The public keys external links must be signed with: SHOP_LINK_KEYS (base64 keys, comma-separated),
    /// else the bundled link-keys.json (`{"keys": [...]}`). None: every external link is refused.
    static func linkKeys(environment: [String: String]) throws -> TrustedKeys {
        if let keys = environment["SHOP_LINK_KEYS"], !keys.isEmpty {
            return try TrustedKeys(keys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        struct File: Decodable { var keys: [String] }
        guard let bundled = Bundle.module.url(forResource: "link-keys", withExtension: "json"), let data = FileManager.default.contents(atPath: bundled.path)
        else { throw AppSettingError("the bundled link-keys.json is missing from the build") }
        return try TrustedKeys((try FeedJSON.decode(data, what: "link-keys.json") as File).keys)
    }

    /// The private key links are signed with by `App sign`: the file `--key` or SHOP_LINK_SIGNING_KEY names
    /// (a key from `componentctl plugin keygen`). The App itself carries no private key.
    static func linkSigner(keyFile: String?, environment: [String: String]) throws -> LinkSigner {
        guard let path = keyFile ?? environment["SHOP_LINK_SIGNING_KEY"], !path.isEmpty else {
            throw AppSettingError("signing a link needs the private key: --key FILE or SHOP_LINK_SIGNING_KEY (make one with 'componentctl plugin keygen')")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw AppSettingError("the signing key \(path) cannot be read") }
        return LinkSigner(key: try PluginSigningKey(fileContents: text))
    }

    /// What the modules read: the app's settings, each replaced by an environment variable of its name.
    static func moduleSettings(environment: [String: String], app: AppDefinition) -> [String: String] {
        app.settings.merging(environment) { _, environment in environment }
    }

    /// The degrade table and where it came from: the file named by SHOP_DEGRADE_TABLE (a path or file:// URL),
    /// else the last good copy of the one served from a URL, else the app's own, else the bundled one.
    static func degradeTable(environment: [String: String], app: AppDefinition, remote: RemoteConfiguration?) throws -> (DegradeTable, String) {
        if let source = environment["SHOP_DEGRADE_TABLE"], !source.isEmpty {
            let url = source.hasPrefix("file://") ? URL(string: source) : URL(fileURLWithPath: source)
            guard let url, let data = try? Data(contentsOf: url) else {
                throw DegradeTableError(source: source, reason: "it cannot be read (SHOP_DEGRADE_TABLE takes a file path or a file:// URL)")
            }
            return (try DegradeTable.decode(data, source: source), source)
        }
        // A kept copy was checked when it was taken; one that no longer decodes (another App version) is passed over.
        if let served = remote?.current(RemoteConfiguration.degradeTable), let table = try? DegradeTable.decode(served.json, source: served.source) {
            return (table, served.source)
        }
        if let table = app.degradeTable {
            let source = "the degrade table of app '\(app.name)'"
            return (try DegradeTable.decode(Data(table.utf8), source: source), source)
        }
        guard let bundled = Bundle.module.url(forResource: "degrade", withExtension: "json") else {
            throw DegradeTableError(source: "degrade.json", reason: "the bundled table is missing from the build")
        }
        return (try DegradeTable.decode(try Data(contentsOf: bundled), source: bundled.path), bundled.path)
    }
}
