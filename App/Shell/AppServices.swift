import Foundation
import HomeInterface
import LinkSigning
import Logging
import Router
import ScreenKit

/// Checks links from outside the app with the App's signing key.
struct SignedLinkVerifier: ExternalLinkVerifier {
    let signer: LinkSigner

    func verify(_ url: RouteURL) throws {
        try signer.verify(url.original)
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

    /// The settings of `app` under `environment`; throws naming the setting that cannot be used.
    init(environment: [String: String], app: AppDefinition) throws {
        (degradeTable, degradeSource) = try AppSettings.degradeTable(environment: environment, app: app)
        linkVerifier = SignedLinkVerifier(signer: try AppSettings.signer(environment: environment))
        let settings = AppSettings.moduleSettings(environment: environment, app: app)
        if let base = settings[AppSettings.webFallback], !base.isEmpty {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw AppSettingError("\(AppSettings.webFallback) is '\(base)'; it takes the web site's address, like https://m.shop.example/")
            }
            webBase = base
        }
    }

    /// The web page of `url` when a web fallback is set and `url` is of the app's own scheme.
    func webFallback(for url: RouteURL) -> Screen? {
        guard let webBase, url.scheme == AppRunner.businessScheme else { return nil }
        return ShellScreens.webPage(AbsentFeatures.webAddress(url.original, base: webBase))
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

    /// The key external links are signed with; the default is for development only.
    static func signer(environment: [String: String]) throws -> LinkSigner {
        try LinkSigner(key: environment["SHOP_LINK_KEY"] ?? "shop-development-signing-key")
    }

    /// What the modules read: the app's settings and home layout, each replaced by an environment variable of its name.
    static func moduleSettings(environment: [String: String], app: AppDefinition) -> [String: String] {
        var settings = app.settings
        settings[HomeSettings.layoutJSON] = app.homeLayout
        return settings.merging(environment) { _, environment in environment }
    }

    /// The degrade table and where it came from: the file named by SHOP_DEGRADE_TABLE (a path or file:// URL),
    /// else the app's own, else the bundled one.
    static func degradeTable(environment: [String: String], app: AppDefinition) throws -> (DegradeTable, String) {
        if let source = environment["SHOP_DEGRADE_TABLE"], !source.isEmpty {
            let url = source.hasPrefix("file://") ? URL(string: source) : URL(fileURLWithPath: source)
            guard let url, let data = try? Data(contentsOf: url) else {
                throw DegradeTableError(source: source, reason: "it cannot be read (SHOP_DEGRADE_TABLE takes a file path or a file:// URL)")
            }
            return (try DegradeTable.decode(data, source: source), source)
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
