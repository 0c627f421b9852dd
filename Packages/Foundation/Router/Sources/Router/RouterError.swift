/// Everything the router, the service registry and the module manager refuse, each with the next step.
public enum RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A URL that cannot be parsed.
    case invalidURL(String, reason: String)
    /// A pattern that cannot be parsed.
    case invalidPattern(String, reason: String)
    /// Two components registered patterns of one shape.
    case duplicateRoute(pattern: String, owner: String, existingPattern: String, existingOwner: String)
    /// No route matched and no fallback is set.
    case noRoute(String)
    /// A typed route's URL could not be built because a captured value is missing.
    case missingParameter(String, pattern: String)
    /// A URL's parameters do not fit a typed route.
    case badParameters(url: String, route: String, reason: String)
    /// A handler returned something other than what the caller asked for.
    case unexpectedResult(url: String, expected: String, got: String)
    /// A parameter type registered twice.
    case duplicateParameterType(String)
    /// A service protocol registered twice.
    case duplicateService(service: String, owner: String, existingOwner: String)
    /// A service nobody registered.
    case unknownService(String)
    /// Service factories that need each other.
    case serviceCycle([String])
    /// A module names a dependency that is not loaded.
    case unknownModuleDependency(module: String, dependency: String)
    /// Modules that depend on each other in a circle.
    case moduleCycle([String])
    /// Two modules with one component name.
    case duplicateModule(String)
    /// An interceptor stopped the open.
    case rejected(url: String, interceptor: String, reason: String)
    /// An interceptor decided nothing in time.
    case interceptorTimedOut(url: String, interceptor: String)
    /// Two interceptors with one priority.
    case duplicateInterceptorPriority(Int, name: String, existing: String)
    /// Redirects that go round in circles.
    case tooManyRedirects(String)
    /// An external link to a route that is not public.
    case notPublic(url: String, origin: String)
    /// An external link without a valid signature.
    case badLinkSignature(url: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "Invalid URL '\(url)': \(reason)."
        case .invalidPattern(let pattern, let reason):
            "Invalid route pattern '\(pattern)': \(reason)."
        case .duplicateRoute(let pattern, let owner, let existingPattern, let existingOwner):
            "Route '\(pattern)' of component '\(owner)' collides with '\(existingPattern)' of component '\(existingOwner)'. "
                + "Each URL shape has one owner: rename one of the routes."
        case .noRoute(let url):
            "No route matches '\(url)', and no fallback is set. Register a route for it or set a fallback."
        case .missingParameter(let name, let pattern):
            "Cannot build a URL for '\(pattern)': parameter '\(name)' is missing or empty."
        case .badParameters(let url, let route, let reason):
            "'\(url)' does not fit route \(route): \(reason)."
        case .unexpectedResult(let url, let expected, let got):
            "'\(url)' returned \(got), not the \(expected) the caller expected."
        case .duplicateParameterType(let name):
            "Parameter type '\(name)' is already registered; choose another name."
        case .duplicateService(let service, let owner, let existingOwner):
            "Service \(service) is registered by both '\(existingOwner)' and '\(owner)'. One component provides each service."
        case .unknownService(let service):
            "No component registered service \(service). Load the module that provides it, or a stand-in in a demo."
        case .serviceCycle(let chain):
            "Service factories need each other: \(chain.joined(separator: " -> "))."
        case .unknownModuleDependency(let module, let dependency):
            "Module '\(module)' depends on module '\(dependency)', which is not loaded."
        case .moduleCycle(let chain):
            "Modules depend on each other in a cycle: \(chain.joined(separator: " -> "))."
        case .duplicateModule(let name):
            "Two modules are named '\(name)'; each component ships one module."
        case .rejected(let url, let interceptor, let reason):
            "Interceptor '\(interceptor)' stopped '\(url)': \(reason)."
        case .interceptorTimedOut(let url, let interceptor):
            "Interceptor '\(interceptor)' decided nothing about '\(url)' in time; it must call proceed, redirect or reject once."
        case .duplicateInterceptorPriority(let priority, let name, let existing):
            "Interceptor '\(name)' has priority \(priority), which '\(existing)' already has; priorities are unique so the order is clear."
        case .tooManyRedirects(let url):
            "Too many redirects while opening '\(url)'; an interceptor or the degrade table sends it round in circles."
        case .notPublic(let url, let origin):
            "'\(url)' is not a public route, so a \(origin) link cannot open it. Mark the route public if outsiders may open it."
        case .badLinkSignature(let url, let reason):
            "The external link '\(url)' is refused: \(reason)."
        }
    }
}
