/// What went past the routes, for the App's observer (``Router/setObserver(_:)``): the seeds' "unrecognized
/// selector" reporting, so a broken link or a missing provider is seen, not silently swallowed.
public enum RoutingEvent: Sendable, Equatable {
    /// No route matched `url`: the fallback answers it (or nothing does).
    case noRoute(url: String, origin: RouteOrigin)
    /// `url`'s route is degraded: the rule for `pattern` sends it to `target`.
    case degraded(url: String, pattern: String, target: String, reason: String?)
    /// A link from outside the app was refused (not public, unsigned, forged, expired, replayed).
    case refusedExternalLink(reason: String)
    /// A component asked for a service nobody provides.
    case unknownService(String)
}
