import Foundation
import HomeInterface
import LinkSigning
import Router

/// Checks links from outside the app with the App's signing key.
struct SignedLinkVerifier: ExternalLinkVerifier {
    let signer: LinkSigner

    func verify(_ url: RouteURL) throws {
        try signer.verify(url.original)
    }
}

/// Logs every open that reaches a route: first of all interceptors, and it never stops one.
struct LoggingInterceptor: RouteInterceptor {
    let name = "logging"
    let priority = 1_000
    let scope = InterceptorScope.all
    let log: @Sendable (String) -> Void

    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async {
        log("route: \(request.url.original) origin=\(request.origin.rawValue) owner=\(request.owner ?? "-")\n")
        decision.proceed()
    }
}

/// The App's settings from its environment.
enum AppSettings {
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

    /// The degrade table: the file named by SHOP_DEGRADE_TABLE (a path or file:// URL), else the app's own,
    /// else the bundled one.
    static func degradeTable(environment: [String: String], app: AppDefinition) throws -> DegradeTable {
        if let source = environment["SHOP_DEGRADE_TABLE"], !source.isEmpty {
            let url = source.hasPrefix("file://") ? URL(string: source) : URL(fileURLWithPath: source)
            guard let url, let data = try? Data(contentsOf: url) else {
                throw DegradeTableError(source: source, reason: "it cannot be read (SHOP_DEGRADE_TABLE takes a file path or a file:// URL)")
            }
            return try DegradeTable.decode(data, source: source)
        }
        if let table = app.degradeTable {
            return try DegradeTable.decode(Data(table.utf8), source: "the degrade table of app '\(app.name)'")
        }
        guard let bundled = Bundle.module.url(forResource: "degrade", withExtension: "json") else {
            throw DegradeTableError(source: "degrade.json", reason: "the bundled table is missing from the build")
        }
        return try DegradeTable.decode(try Data(contentsOf: bundled), source: bundled.path)
    }
}
