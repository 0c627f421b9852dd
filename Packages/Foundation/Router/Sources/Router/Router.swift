import Synchronization

/// The bus components talk through: URL routes, services and events.
///
/// Safe to use from any task. Writers change the table under a lock; readers match against an
/// immutable snapshot published through an atomic pointer, so a lookup takes no lock. A changed
/// table is snapshotted again by the first lookup after the change (so registering many routes
/// copies nothing), and a replaced snapshot is freed once no lookup can still be reading it.
public final class Router: Sendable {
    /// The services components provide each other.
    public let services: ServiceRegistry
    /// The publish/subscribe bus.
    public let events: EventBus
    /// The caps applied to every URL opened.
    public let limits: RouterLimits

    /// How long an interceptor may take to decide.
    public let interceptorTimeout: Duration

    private struct Table: Sendable {
        var trie = RouteTrie()
        /// Every route registered, by id, removed ones included (ids are never reused).
        var entries: [RouteRegistration] = []
        var removed = Set<Int>()
        /// What `published` points to; nil when the routes changed since.
        var snapshot: RouteSnapshot?
        /// Replaced snapshots that a lookup may still be reading.
        var retired: [RouteSnapshot] = []
        var types: [String: ParameterType] = Dictionary(uniqueKeysWithValues: ParameterType.builtIn.map { ($0.name, $0) })
        var fallback: RouteHandler?
        var webContainer: RouteHandler?
        var interceptors: [any RouteInterceptor] = []
        var degrade = DegradeTable()
        var verifier: (any ExternalLinkVerifier)?

        /// Adds `route` as the next route; throws, adding no route, when its shape is taken or names an unknown type.
        mutating func add(_ route: RouteRegistration) throws {
            if let existing = try trie.insert(route.pattern, types: types, id: entries.count) {
                throw Self.collision(route, with: entries[existing])
            }
            entries.append(route)
        }

        /// Adds `routes` as the next routes, all of them or, when one's shape is taken or names an
        /// unknown type, none: the routes put in the trie by then are withdrawn before the error is thrown.
        mutating func add(_ routes: [RouteRegistration]) throws {
            let first = entries.count
            for (offset, route) in routes.enumerated() {
                do {
                    if let existing = try trie.insert(route.pattern, types: types, id: first + offset) {
                        throw Self.collision(route, with: existing < first ? entries[existing] : routes[existing - first])
                    }
                } catch {
                    // Each route inserted had a shape of its own, so removing by shape takes out only them.
                    for inserted in routes[..<offset] { trie.remove(inserted.pattern) }
                    throw error
                }
            }
            // A table's first routes keep the caller's array (no copy, no fresh memory to fault in).
            if entries.isEmpty { entries = routes } else { entries.append(contentsOf: routes) }
        }

        private static func collision(_ route: RouteRegistration, with other: RouteRegistration) -> RouterError {
            .duplicateRoute(pattern: route.pattern.text, owner: route.owner, existingPattern: other.pattern.text, existingOwner: other.owner)
        }
    }

    private let table = Locked(Table())
    /// The current snapshot, unretained: `Table.snapshot` owns it.
    private let published = Atomic<Unmanaged<RouteSnapshot>?>(nil)
    /// Lookups in progress; a retired snapshot is freed only when this is seen at zero.
    private let activeLookups = Atomic<Int>(0)

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
        let entry = RouteRegistration(pattern: try RoutePattern(parsing: pattern), owner: owner, options: options, handler: handler)
        try changeRoutes { table in try table.add(entry) }
    }

    /// Registers a typed route: the handler gets the route value decoded from the URL.
    public func register<R: Route>(
        _ route: R.Type, owner: String, options: RouteOptions = RouteOptions(),
        handler: @escaping @Sendable (R, RouteRequest) async throws -> (any Sendable)?
    ) throws {
        try register([RouteRegistration(route, owner: owner, options: options, handler: handler)])
    }

    /// Registers all of `routes` or, when one's shape is taken (in the table or earlier in `routes`)
    /// or names an unknown parameter type, none of them: the table is left as it was.
    ///
    /// The way to register a module's routes, and the fast way to build a large table: one lock,
    /// room made for every route at once, and the first routes of a table kept in the array given.
    public func register(_ routes: [RouteRegistration]) throws {
        try changeRoutes { table in
            table.trie.reserveCapacity(forAdding: routes.count)
            try table.add(routes)
        }
    }

    /// Removes the route of `pattern`'s shape; returns whether there was one.
    @discardableResult
    public func unregister(_ pattern: String) throws -> Bool {
        let parsed = try RoutePattern(parsing: pattern)
        return changeRoutes { table in
            guard let id = table.trie.remove(parsed) else { return false }
            table.removed.insert(id)
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
            table.entries.indices.filter { !table.removed.contains($0) }.map { id in
                let entry = table.entries[id]
                return RouteDescription(pattern: entry.pattern.text, owner: entry.owner, isPublic: entry.options.isPublic, labels: entry.options.labels.sorted())
            }
        }.sorted { ($0.pattern, $0.owner) < ($1.pattern, $1.owner) }
    }

    /// The route `url` opens and its captured parameters, without running any handler; nil when no route matches.
    ///
    /// The fast way to ask: it matches on the URL's bytes, decoding only URLs with escapes, and
    /// takes no lock. Throws ``RouterError/invalidURL(_:reason:)`` for a malformed URL.
    public func lookup(_ url: String) throws -> RouteMatch? {
        switch withSnapshot({ $0.lookup(url, limits: limits) }) {
        case .matched(let match): return match
        case .noRoute: return nil
        case .needsDecoding: return lookup(try RouteURL(url, limits: limits))
        }
    }

    /// The request `url` would be handled with, without running any handler; nil when no route matches.
    public func match(_ url: String, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp) throws -> RouteRequest? {
        let parsed = try RouteURL(url, limits: limits)
        return lookup(parsed).map { RouteRequest(url: parsed, match: $0, arguments: arguments, origin: origin) }
    }

    /// Whether `url` is well-formed and a route (not the fallback) would open it.
    public func canOpen(_ url: String) -> Bool {
        (try? lookup(url)) != nil
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
        guard let match = lookup(parsed) else {
            let request = RouteRequest(url: parsed, arguments: arguments, origin: origin)
            if parsed.isWeb, let web {
                guard origin == .inApp else { throw RouterError.notPublic(url: url, origin: origin.rawValue) }
                return try await web(request)
            }
            guard let fallback else { throw RouterError.noRoute(url) }
            return try await fallback(request)
        }
        let request = RouteRequest(url: parsed, match: match, arguments: arguments, origin: origin)
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
        return try await match.entry.handler(request)
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

    private func lookup(_ url: RouteURL) -> RouteMatch? {
        withSnapshot { $0.lookup(url) }
    }

    /// Runs `body` on the current snapshot without a lock, publishing a new one first if the routes changed.
    private func withSnapshot<R>(_ body: (RouteSnapshot) -> R) -> R {
        activeLookups.add(1, ordering: .sequentiallyConsistent)
        defer { activeLookups.subtract(1, ordering: .sequentiallyConsistent) }
        if let snapshot = published.load(ordering: .sequentiallyConsistent) {
            return snapshot._withUnsafeGuaranteedRef(body)
        }
        let snapshot = table.withLock { table in
            if let current = table.snapshot { return current }
            let fresh = RouteSnapshot(trie: table.trie, entries: table.entries)
            table.snapshot = fresh
            published.store(Unmanaged.passUnretained(fresh), ordering: .sequentiallyConsistent)
            // Only this lookup is running, and it reads the fresh snapshot: no one can hold a retired one.
            if activeLookups.load(ordering: .sequentiallyConsistent) == 1 { table.retired.removeAll() }
            return fresh
        }
        return body(snapshot)
    }

    /// Changes the routes under the lock and withdraws the published snapshot.
    ///
    /// A lookup that starts after the withdrawal sees no snapshot or a newer one, so once the
    /// count of running lookups is seen at zero no lookup holds a retired snapshot.
    private func changeRoutes<R>(_ body: (inout Table) throws -> R) rethrows -> R {
        try table.withLock { table in
            let result = try body(&table)
            if let current = table.snapshot {
                published.store(nil, ordering: .sequentiallyConsistent)
                table.retired.append(current)
                table.snapshot = nil
            }
            if activeLookups.load(ordering: .sequentiallyConsistent) == 0 { table.retired.removeAll() }
            return result
        }
    }
}
