/// Everything the router, the service registry and the module manager refuse, each with the next step.
///
/// A struct with a ``Code``, not an enum: a package that is versioned and pinned can add a kind of
/// error in a minor release without breaking every caller's `switch` (the extensible-error pattern of
/// swift-nio and swift-service-lifecycle). Compare ``code`` to tell kinds apart; read ``description``
/// for the message.
public struct RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of refusal an error is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }
        /// A URL that cannot be parsed.
        public static let invalidURL = Code("invalidURL")
        /// A pattern that cannot be parsed.
        public static let invalidPattern = Code("invalidPattern")
        /// Two components registered patterns of one shape.
        public static let duplicateRoute = Code("duplicateRoute")
        /// No route matched and no fallback is set.
        public static let noRoute = Code("noRoute")
        /// A typed route's URL could not be built because a captured value is missing.
        public static let missingParameter = Code("missingParameter")
        /// A URL's parameters do not fit a typed route.
        public static let badParameters = Code("badParameters")
        /// A handler returned something other than what the caller asked for.
        public static let unexpectedResult = Code("unexpectedResult")
        /// A parameter type registered twice.
        public static let duplicateParameterType = Code("duplicateParameterType")
        /// A service protocol registered twice.
        public static let duplicateService = Code("duplicateService")
        /// A service nobody registered.
        public static let unknownService = Code("unknownService")
        /// Service factories that need each other.
        public static let serviceCycle = Code("serviceCycle")
        /// A module names a dependency that is not loaded.
        public static let unknownModuleDependency = Code("unknownModuleDependency")
        /// Modules that depend on each other in a circle.
        public static let moduleCycle = Code("moduleCycle")
        /// Two modules with one component name.
        public static let duplicateModule = Code("duplicateModule")
        /// A module declares a lifecycle event nobody announces, or announces one with a bad name.
        public static let unknownLifecycleEvent = Code("unknownLifecycleEvent")
        /// A module that is disabled (it failed to register or launch).
        public static let moduleDisabled = Code("moduleDisabled")
        /// A route of a scheme the app does not allow.
        public static let schemeNotAllowed = Code("schemeNotAllowed")
        /// An interceptor stopped the open.
        public static let rejected = Code("rejected")
        /// An interceptor decided nothing in time.
        public static let interceptorTimedOut = Code("interceptorTimedOut")
        /// Two interceptors with one priority.
        public static let duplicateInterceptorPriority = Code("duplicateInterceptorPriority")
        /// Redirects that go round in circles.
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// An external link to a route that is not public.
        public static let notPublic = Code("notPublic")
        /// An external link without a valid signature.
        public static let badLinkSignature = Code("badLinkSignature")
        /// A runtime plugin tried something beyond the bounds of its manifest.
        public static let outsidePluginScope = Code("outsidePluginScope")
    }

    /// The kind of refusal.
    public let code: Code
    /// What was refused and what to do next.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// A URL that cannot be parsed.
    public static func invalidURL(_ url: String, reason: String) -> RouterError {
        RouterError(.invalidURL, "Invalid URL '\(url)': \(reason).")
    }

    /// A pattern that cannot be parsed.
    public static func invalidPattern(_ pattern: String, reason: String) -> RouterError {
        RouterError(.invalidPattern, "Invalid route pattern '\(pattern)': \(reason).")
    }

    /// Two components registered patterns of one shape.
    public static func duplicateRoute(pattern: String, owner: String, existingPattern: String, existingOwner: String) -> RouterError {
        RouterError(
            .duplicateRoute,
            "Route '\(pattern)' of component '\(owner)' collides with '\(existingPattern)' of component '\(existingOwner)'. "
                + "Each URL shape has one owner: rename one of the routes.")
    }

    /// No route matched and no fallback is set.
    public static func noRoute(_ url: String) -> RouterError {
        RouterError(.noRoute, "No route matches '\(url)', and no fallback is set. Register a route for it or set a fallback.")
    }

    /// No route matches `url`, a link from outside; such links never reach the fallback.
    public static func noRoute(_ url: String, origin: String) -> RouterError {
        RouterError(.noRoute, "No route matches '\(url)'; a \(origin) link opens registered public routes only, never the fallback.")
    }

    /// A typed route's URL could not be built because a captured value is missing.
    public static func missingParameter(_ name: String, pattern: String) -> RouterError {
        RouterError(.missingParameter, "Cannot build a URL for '\(pattern)': parameter '\(name)' is missing or empty.")
    }

    /// A URL's parameters do not fit a typed route.
    public static func badParameters(url: String, route: String, reason: String) -> RouterError {
        RouterError(.badParameters, "'\(url)' does not fit route \(route): \(reason).")
    }

    /// A handler returned something other than what the caller asked for.
    public static func unexpectedResult(url: String, expected: String, got: String) -> RouterError {
        RouterError(.unexpectedResult, "'\(url)' returned \(got), not the \(expected) the caller expected.")
    }

    /// A parameter type registered twice.
    public static func duplicateParameterType(_ name: String) -> RouterError {
        RouterError(.duplicateParameterType, "Parameter type '\(name)' is already registered; choose another name.")
    }

    /// A service protocol registered twice.
    public static func duplicateService(service: String, owner: String, existingOwner: String) -> RouterError {
        RouterError(.duplicateService, "Service \(service) is registered by both '\(existingOwner)' and '\(owner)'. One component provides each service.")
    }

    /// A service nobody registered.
    public static func unknownService(_ service: String) -> RouterError {
        RouterError(.unknownService, "No component registered service \(service). Load the module that provides it, or a stand-in in a demo.")
    }

    /// Service factories that need each other.
    public static func serviceCycle(_ chain: [String]) -> RouterError {
        RouterError(.serviceCycle, "Service factories need each other: \(chain.joined(separator: " -> ")).")
    }

    /// A module names a dependency that is not loaded.
    public static func unknownModuleDependency(module: String, dependency: String) -> RouterError {
        RouterError(.unknownModuleDependency, "Module '\(module)' depends on module '\(dependency)', which is not loaded.")
    }

    /// Modules that depend on each other in a circle.
    public static func moduleCycle(_ chain: [String]) -> RouterError {
        RouterError(.moduleCycle, "Modules depend on each other in a cycle: \(chain.joined(separator: " -> ")).")
    }

    /// Two modules with one component name.
    public static func duplicateModule(_ name: String) -> RouterError {
        RouterError(.duplicateModule, "Two modules are named '\(name)'; each component ships one module.")
    }

    /// An interceptor stopped the open.
    public static func rejected(url: String, interceptor: String, reason: String) -> RouterError {
        RouterError(.rejected, "Interceptor '\(interceptor)' stopped '\(url)': \(reason).")
    }

    /// An interceptor decided nothing in time.
    public static func interceptorTimedOut(url: String, interceptor: String) -> RouterError {
        RouterError(.interceptorTimedOut, "Interceptor '\(interceptor)' decided nothing about '\(url)' in time; it must call proceed, redirect or reject once.")
    }

    /// Two interceptors with one priority.
    public static func duplicateInterceptorPriority(_ priority: Int, name: String, existing: String) -> RouterError {
        RouterError(
            .duplicateInterceptorPriority,
            "Interceptor '\(name)' has priority \(priority), which '\(existing)' already has; priorities are unique so the order is clear.")
    }

    /// Redirects that go round in circles.
    public static func tooManyRedirects(_ url: String) -> RouterError {
        RouterError(.tooManyRedirects, "Too many redirects while opening '\(url)'; an interceptor or the degrade table sends it round in circles.")
    }

    /// An external link to a route that is not public.
    public static func notPublic(url: String, origin: String) -> RouterError {
        RouterError(.notPublic, "'\(url)' is not a public route, so a \(origin) link cannot open it. Mark the route public if outsiders may open it.")
    }

    /// An external link without a valid signature.
    public static func badLinkSignature(url: String, reason: String) -> RouterError {
        RouterError(.badLinkSignature, "The external link '\(url)' is refused: \(reason).")
    }

    /// A module declares (`module` set) or someone sends a lifecycle event that is neither built in nor
    /// announced by a module.
    public static func unknownLifecycleEvent(module: String?, event: String, known: [String]) -> RouterError {
        let hint = closest(event, in: known).map { "Did you mean '\($0)'? " } ?? ""
        let subject = module.map { "Module '\($0)' declares the lifecycle event '\(event)'" } ?? "The lifecycle event '\(event)'"
        let list = known.isEmpty ? "No module announces an event of its own" : "Known events: \(known.joined(separator: ", "))"
        return RouterError(
            .unknownLifecycleEvent,
            "\(subject), which is neither built in nor announced by a module. \(hint)\(list); "
                + "a module that sends an event of its own lists it in `announces`.")
    }

    /// Someone sends a built-in lifecycle event as one of the app's own: only the App sends those.
    public static func builtInLifecycleEventSent(event: String, known: [String]) -> RouterError {
        let list = known.isEmpty ? "no module announces an event of its own" : "the app's own events are \(known.joined(separator: ", "))"
        return RouterError(
            .unknownLifecycleEvent, "'\(event)' is a built-in lifecycle event: only the App itself sends it, as it happens. Modules send their own; \(list).")
    }

    /// A module announces an event whose name is built in or not of the form `words.joined-by.dots-or-dashes`.
    public static func badLifecycleEventName(module: String, event: String) -> RouterError {
        RouterError(
            .unknownLifecycleEvent,
            "Module '\(module)' announces the lifecycle event '\(event)': an app's own event is named after its module, then lower-case "
                + "words joined by dots or dashes, like '\(module).synced'.")
    }

    /// A route of a scheme the app does not allow.
    public static func schemeNotAllowed(pattern: String, owner: String, allowed: [String]) -> RouterError {
        RouterError(
            .schemeNotAllowed,
            "Route '\(pattern)' of '\(owner)' uses a scheme this app does not route (it routes \(allowed.map { "\($0)://" }.joined(separator: ", "))); "
                + "web pages open in the web container, and app routes use the app's scheme.")
    }

    /// A runtime plugin tried `action`, which is beyond its bounds (`late`: after its load finished).
    public static func outsidePluginScope(plugin: String, action: String, late: Bool) -> RouterError {
        let rule =
            late
            ? "a runtime plugin registers while it loads, never later"
            : "a runtime plugin registers only what its manifest declares, as itself, and changes nothing else of the App's router"
        return RouterError(.outsidePluginScope, "Runtime plugin '\(plugin)' may not \(action): \(rule).")
    }

    /// A module that is disabled.
    public static func moduleDisabled(_ module: String, reason: String) -> RouterError {
        RouterError(.moduleDisabled, "Module '\(module)' is disabled: \(reason).")
    }

    /// The candidate nearest to `name` by edit distance, if it is near enough to be a slip.
    static func closest(_ name: String, in candidates: [String]) -> String? {
        let best = candidates.map { ($0, editDistance(name, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best, best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
