import Synchronization

/// The bus components talk through: URL routes, services and events.
///
/// Safe to use from any task: registration and lookup share a lock-protected table whose
/// readers copy it out (a reference count, no deep copy) and match without holding the lock.
public final class Router: Sendable {
    /// The services components provide each other.
    public let services: ServiceRegistry
    /// The publish/subscribe bus.
    public let events: EventBus
    /// The caps applied to every URL opened.
    public let limits: RouterLimits

    /// How long an interceptor may take to decide.
    public let interceptorTimeout: Duration

    private struct Entry: Sendable {
        var pattern: RoutePattern
        var owner: String
        var options: RouteOptions
        var handler: RouteHandler
    }

    private struct Table: Sendable {
        var trie = RouteTrie()
        var entries: [Entry?] = []
        var types: [String: ParameterType] = Dictionary(uniqueKeysWithValues: ParameterType.builtIn.map { ($0.name, $0) })
        var fallback: RouteHandler?
        var webContainer: RouteHandler?
        var interceptors: [any RouteInterceptor] = []
        var degrade = DegradeTable()
        var verifier: (any ExternalLinkVerifier)?
    }

    private let table = Mutex(Table())

    /// Creates an empty router with its own service registry and event bus.
    public init(limits: RouterLimits = .default, interceptorTimeout: Duration = .seconds(5)) {
        self.limits = limits
        self.interceptorTimeout = interceptorTimeout
        self.services = ServiceRegistry()
        self.events = EventBus()
    }

    /// Adds a custom parameter type for patterns like `<sku:code>`; register types before routes that use them.
    public func register(parameterType: ParameterType) throws {
        try table.withLock { table in
            guard table.types[parameterType.name] == nil else { throw RouterError.duplicateParameterType(parameterType.name) }
            table.types[parameterType.name] = parameterType
        }
    }

    /// Registers `pattern` for `owner`; a pattern of the same shape already registered is an error naming both.
    public func register(_ pattern: String, owner: String, options: RouteOptions = RouteOptions(), handler: @escaping RouteHandler) throws {
        let parsed = try RoutePattern(parsing: pattern)
        try table.withLock { table in
            let id = table.entries.count
            if let existing = try table.trie.insert(parsed, types: table.types, id: id), let other = table.entries[existing] {
                throw RouterError.duplicateRoute(
                    pattern: pattern, owner: owner, existingPattern: other.pattern.text, existingOwner: other.owner)
            }
            table.entries.append(Entry(pattern: parsed, owner: owner, options: options, handler: handler))
        }
    }

    /// Registers a typed route: the handler gets the route value decoded from the URL.
    public func register<R: Route>(
        _ route: R.Type, owner: String, options: RouteOptions = RouteOptions(),
        handler: @escaping @Sendable (R, RouteRequest) async throws -> (any Sendable)?
    ) throws {
        try register(R.pattern.text, owner: owner, options: options) { request in
            try await handler(try R(request: request), request)
        }
    }

    /// Removes the route of `pattern`'s shape; returns whether there was one.
    @discardableResult
    public func unregister(_ pattern: String) throws -> Bool {
        let parsed = try RoutePattern(parsing: pattern)
        return table.withLock { table in
            guard let id = table.trie.remove(parsed) else { return false }
            table.entries[id] = nil
            return true
        }
    }

    /// Sets what opens a well-formed URL that no route matches.
    public func setFallback(_ handler: RouteHandler?) {
        table.withLock { $0.fallback = handler }
    }

    /// Sets what opens `http` and `https` URLs: the web container.
    public func setWebContainer(_ handler: RouteHandler?) {
        table.withLock { $0.webContainer = handler }
    }

    /// Adds an interceptor; its priority must be unique.
    public func addInterceptor(_ interceptor: any RouteInterceptor) throws {
        try table.withLock { table in
            if let existing = table.interceptors.first(where: { $0.priority == interceptor.priority }) {
                throw RouterError.duplicateInterceptorPriority(interceptor.priority, name: interceptor.name, existing: existing.name)
            }
            table.interceptors.append(interceptor)
            table.interceptors.sort { $0.priority > $1.priority }
        }
    }

    /// Replaces the degrade table (which routes go to an H5 page or another route instead).
    public func setDegradeTable(_ degrade: DegradeTable) {
        table.withLock { $0.degrade = degrade }
    }

    /// Sets what checks the signature of links from outside the app; without one, they are all refused.
    public func setExternalLinkVerifier(_ verifier: (any ExternalLinkVerifier)?) {
        table.withLock { $0.verifier = verifier }
    }

    /// The whole route table, sorted by pattern.
    public var routes: [RouteDescription] {
        table.withLock { table in
            table.entries.compactMap { entry in
                entry.map { RouteDescription(pattern: $0.pattern.text, owner: $0.owner, isPublic: $0.options.isPublic, labels: $0.options.labels.sorted()) }
            }
        }.sorted { ($0.pattern, $0.owner) < ($1.pattern, $1.owner) }
    }

    /// The request `url` would be handled with, without running any handler; nil when no route matches.
    public func match(_ url: String, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp) throws -> RouteRequest? {
        let parsed = try RouteURL(url, limits: limits)
        return resolve(parsed, arguments: arguments, origin: origin)?.request
    }

    /// Whether `url` is well-formed and a route (not the fallback) would open it.
    public func canOpen(_ url: String) -> Bool {
        guard let parsed = try? RouteURL(url, limits: limits) else { return false }
        return resolve(parsed, arguments: [:], origin: .inApp) != nil
    }

    /// Opens `url`: the matched route's handler, else the web container for http(s), else the fallback.
    ///
    /// Throws ``RouterError/invalidURL(_:reason:)`` for a malformed URL and ``RouterError/noRoute(_:)``
    /// when nothing handles it; errors thrown by the handler pass through.
    /// A link from outside the app must reach a public route and be validly signed; interceptors
    /// run before the handler; a degraded route goes where the degrade table says.
    public func open(_ url: String, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp) async throws -> (any Sendable)? {
        try await open(url, arguments: arguments, origin: origin, hops: 0)
    }

    private func open(_ url: String, arguments: [String: any Sendable], origin: RouteOrigin, hops: Int) async throws -> (any Sendable)? {
        guard hops <= 8 else { throw RouterError.tooManyRedirects(url) }
        let parsed = try RouteURL(url, limits: limits)
        let (web, fallback, degrade, verifier, interceptors) = table.withLock {
            ($0.webContainer, $0.fallback, $0.degrade, $0.verifier, $0.interceptors)
        }
        guard let (request, handler) = resolve(parsed, arguments: arguments, origin: origin) else {
            let request = RouteRequest(url: parsed, arguments: arguments, origin: origin)
            if parsed.isWeb, let web {
                guard origin == .inApp else { throw RouterError.notPublic(url: url, origin: origin.rawValue) }
                return try await web(request)
            }
            guard let fallback else { throw RouterError.noRoute(url) }
            return try await fallback(request)
        }
        if origin != .inApp {
            guard request.options.isPublic else { throw RouterError.notPublic(url: url, origin: origin.rawValue) }
            guard let verifier else { throw RouterError.badLinkSignature(url: url, reason: "the app verifies no external links") }
            do {
                try verifier.verify(parsed)
            } catch {
                throw RouterError.badLinkSignature(url: url, reason: "\(error)")
            }
        }
        if let target = degrade.target(for: request) {
            if let targetURL = try? RouteURL(target, limits: limits), targetURL.isWeb, let web {
                return try await web(RouteRequest(url: targetURL, arguments: arguments, origin: .inApp))
            }
            return try await open(target, arguments: arguments, origin: .inApp, hops: hops + 1)
        }
        for interceptor in interceptors where interceptor.scope.applies(to: request) {
            switch await InterceptorDecision.run(interceptor, on: request, timeout: interceptorTimeout).0 {
            case .proceed: continue
            case .redirect(let target): return try await open(target, arguments: arguments, origin: .inApp, hops: hops + 1)
            case .reject(let reason): throw RouterError.rejected(url: url, interceptor: interceptor.name, reason: reason)
            case .timedOut: throw RouterError.interceptorTimedOut(url: url, interceptor: interceptor.name)
            }
        }
        return try await handler(request)
    }

    /// Opens `url` and returns its value as a `V`; throws ``RouterError/unexpectedResult(url:expected:got:)`` otherwise.
    public func open<V>(_ url: String, as type: V.Type, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp) async throws -> V {
        let value = try await open(url, arguments: arguments, origin: origin)
        guard let typed = value as? V else {
            throw RouterError.unexpectedResult(url: url, expected: "\(V.self)", got: value.map { "\(Swift.type(of: $0))" } ?? "nothing")
        }
        return typed
    }

    /// Opens a typed route.
    public func open<R: Route>(_ route: R, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp) async throws -> (any Sendable)? {
        try await open(try route.url(), arguments: arguments, origin: origin)
    }

    /// Opens `url` from code that is not async; `completion` gets the result on an unspecified task.
    public func open(
        _ url: String, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp,
        completion: @escaping @Sendable (Result<(any Sendable)?, any Error>) -> Void
    ) {
        Task {
            do {
                completion(.success(try await open(url, arguments: arguments, origin: origin)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    private func resolve(_ url: RouteURL, arguments: [String: any Sendable], origin: RouteOrigin) -> (request: RouteRequest, handler: RouteHandler)? {
        let (trie, entries) = table.withLock { ($0.trie, $0.entries) }
        guard let match = trie.match(url), let entry = entries[match.id] else { return nil }
        let names = entry.pattern.captureNames
        let pathParameters = Dictionary(uniqueKeysWithValues: zip(names, match.captures))
        let request = RouteRequest(
            url: url, pattern: entry.pattern, owner: entry.owner,
            pathParameters: pathParameters, arguments: arguments, origin: origin, options: entry.options)
        return (request, entry.handler)
    }
}
