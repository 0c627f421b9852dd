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
    init(environment: AppEnvironment, app: AppDefinition, remote: RemoteConfiguration?, storage: Storage) throws {
        (degradeTable, degradeSource) = try environment.degradeTable(app, remote: remote)
        linkVerifier = SignedLinkVerifier(verifier: LinkVerifier(keys: try environment.linkKeys()), used: storage.collection("links.used-once"))
        scheme = app.scheme
        home = app.start
        // An app's `settings:` may name it too.
        let variable = environment.name(.webFallback)
        if let base = environment.moduleSettings(app)[variable], !base.isEmpty {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil, url.fragment == nil else {
                throw AppSettingError("\(variable) is '\(base)'; it takes the web site's address, like https://m.example.com/")
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
