import Router
import ScreenKit

/// What an app does with links to the features it leaves out: a screen saying the feature is not in this
/// app, or the feature's web page, as components.yaml's `missing:` declares.
enum AbsentFeatures {
    private struct Unmatched: Error {}

    /// A fallback that answers the routes of `absent` and hands every other unmatched link to `next`.
    static func fallback(_ absent: [AbsentFeature], app: String, home: String?, next: @escaping RouteHandler) -> RouteHandler {
        guard !absent.isEmpty else { return next }
        let routes = Router()
        for feature in absent {
            for pattern in feature.patterns {
                // A pattern with a parameter type of the absent component's own cannot be matched; its links stay unmatched.
                try? routes.register(pattern, owner: feature.component) { request in
                    guard let web = feature.web else { return notInApp(request.url.original, feature: feature.component, app: app, home: home) }
                    return ShellScreens.webPage(webAddress(request.url, base: web), home: home)
                }
            }
        }
        routes.setFallback { _ in throw Unmatched() }
        return { request in
            do {
                return try await routes.open(request.url.original, arguments: request.arguments)
            } catch is Unmatched {
                return try await next(request)
            }
        }
    }

    /// The screen of a link to a feature the app leaves out.
    static func notInApp(_ url: String, feature: String, app: String, home: String?) -> Screen {
        var screen = Screen(title: "Not in this app")
        screen.text("'\(url)' opens \(feature), which the app '\(app)' does not contain.")
        return ShellScreens.linkingHome(screen, home)
    }

    /// `base` followed by the link's host, path and query: `app://order/3` on `https://m.example.com/` is
    /// `https://m.example.com/order/3`. Built from the parsed link, each segment encoded again, so a `..`
    /// or an escaped slash can never climb out of `base`.
    static func webAddress(_ url: RouteURL, base: String) -> String {
        let segments = ([url.host] + url.segments).filter { !$0.isEmpty && $0 != "." && $0 != ".." }.map { PercentCoding.encode($0) }
        let query =
            url.queryItems.isEmpty
            ? "" : "?" + url.queryItems.map { "\(PercentCoding.encode($0.name))=\(PercentCoding.encode($0.value))" }.joined(separator: "&")
        return (base.hasSuffix("/") ? base : base + "/") + segments.joined(separator: "/") + query
    }
}
