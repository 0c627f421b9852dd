/// The bus components talk through: URL routes, services and events.
///
/// Safe to use from any task. Writers change the table under a lock; readers match against an
/// immutable snapshot published without a lock (``SnapshotPublisher``). A changed table is
/// snapshotted again by the first lookup after the change, so registering many routes copies
/// nothing. Opening a URL, the pipeline of checks before a handler runs, is in `Router+Open.swift`.
public final class Router: Sendable {
    /// The services components provide each other.
    public let services: ServiceRegistry
    /// The publish/subscribe bus.
    public let events: EventBus
    /// The plugins the App links and which extension point gets which of them.
    public let plugins: PluginRegistry
    /// The caps applied to every URL opened.
    public let limits: RouterLimits

    /// How long an interceptor may take to decide.
    public let interceptorTimeout: Duration

    struct Table: Sendable {
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
        var observer: (@Sendable (RoutingEvent) -> Void)?
        /// The schemes routes may use (lower case); nil: any.
        var schemes: Set<String>?

        /// Refuses `route` when its scheme is not one routes may use.
        func checkScheme(_ route: RouteRegistration) throws {
            guard let schemes, !schemes.contains(route.pattern.scheme.lowercased()) else { return }
            throw RouterError.schemeNotAllowed(pattern: route.pattern.text, owner: route.owner, allowed: schemes.sorted())
        }

        /// Adds `route` as the next route; throws, adding no route, when its shape is taken or names an unknown type.
        mutating func add(_ route: RouteRegistration) throws {
            try checkScheme(route)
            if let existing = try trie.insert(route.pattern, types: types, id: entries.count) {
                throw Self.collision(route, with: entries[existing])
            }
            entries.append(route)
        }

        /// Adds `routes` as the next routes, all of them or, when one's shape is taken or names an
        /// unknown type, none: the routes put in the trie by then are withdrawn before the error is thrown.
        mutating func add(_ routes: [RouteRegistration]) throws {
            for route in routes { try checkScheme(route) }
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

        /// The owner of the registered route of `shape`, if any.
        func owner(ofShape shape: String) -> String? {
            entries.indices.first { !removed.contains($0) && entries[$0].pattern.shape == shape }.map { entries[$0].owner }
        }

        private static func collision(_ route: RouteRegistration, with other: RouteRegistration) -> RouterError {
            .duplicateRoute(pattern: route.pattern.text, owner: route.owner, existingPattern: other.pattern.text, existingOwner: other.owner)
        }
    }

    let table: Locked<Table>
    private let publisher: SnapshotPublisher
    /// The bounds of the runtime plugin this router was narrowed for; nil: the App's own router.
    let scope: PluginScope?

    /// Creates an empty router with its own service registry and event bus.
    public init(limits: RouterLimits = .default, interceptorTimeout: Duration = .seconds(5)) {
        self.limits = limits
        self.interceptorTimeout = interceptorTimeout
        self.services = ServiceRegistry()
        self.events = EventBus()
        self.plugins = PluginRegistry()
        self.table = Locked(Table())
        self.publisher = SnapshotPublisher()
        self.scope = nil
    }

    private init(narrowing base: Router, to scope: PluginScope) {
        limits = base.limits
        interceptorTimeout = base.interceptorTimeout
        services = base.services.narrowed(to: scope)
        events = base.events.narrowed(to: scope)
        plugins = base.plugins.narrowed(to: scope)
        table = base.table
        publisher = base.publisher
        self.scope = scope
    }

    /// This router as a runtime plugin gets it: the same routes, services and events, but only what
    /// `scope` permits may change (``PluginScope``).
    public func narrowed(to scope: PluginScope) -> Router {
        Router(narrowing: self, to: scope)
    }

    /// Adds a custom parameter type for patterns like `<sku:code>`; register types before routes that use them.
    public func register(parameterType: ParameterType) throws {
        if let scope { throw scope.breach("add the parameter type '\(parameterType.name)'") }
        try table.withLock { table in
            guard table.types[parameterType.name] == nil else { throw RouterError.duplicateParameterType(parameterType.name) }
            table.types[parameterType.name] = parameterType
        }
    }

    /// Registers `pattern` for `owner`; a pattern of the same shape already registered is an error naming both.
    public func register(_ pattern: String, owner: String, options: RouteOptions = RouteOptions(), handler: @escaping RouteHandler) throws {
        var entry = RouteRegistration(pattern: try RoutePattern(parsing: pattern), owner: owner, options: options, handler: handler)
        if let scope { entry = try scope.permit(entry) }
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
        let routes = try scope.map { scope in try routes.map { try scope.permit($0) } } ?? routes
        try changeRoutes { table in
            table.trie.reserveCapacity(forAdding: routes.count)
            try table.add(routes)
        }
    }

    /// Removes the route of `pattern`'s shape; returns whether there was one.
    @discardableResult
    public func unregister(_ pattern: String) throws -> Bool {
        let parsed = try RoutePattern(parsing: pattern)
        // Asked outside the lock: a breach after the load turns the plugin off, which changes the routes.
        if let scope, let owner = table.withLock({ $0.owner(ofShape: parsed.shape) }), owner != scope.owner {
            throw scope.breach("unregister \(pattern), which '\(owner)' owns")
        }
        return changeRoutes { table in
            guard let id = table.trie.remove(parsed) else { return false }
            table.removed.insert(id)
            return true
        }
    }

    /// Removes every route `owner` registered (a module that is disabled); returns them as they were.
    @discardableResult
    public func unregisterAll(owner: String) -> [RouteDescription] {
        if let scope, owner != scope.owner {
            scope.breach("unregister the routes of '\(owner)'")
            return []
        }
        return changeRoutes { table in
            var removed: [RouteDescription] = []
            for (id, entry) in table.entries.enumerated() where entry.owner == owner && !table.removed.contains(id) {
                guard table.trie.remove(entry.pattern) != nil else { continue }
                table.removed.insert(id)
                removed.append(entry.description)
            }
            return removed
        }
    }

    /// Sets what opens a well-formed URL that no route matches.
    public func setFallback(_ handler: RouteHandler?) {
        if let scope {
            scope.breach("set the fallback")
            return
        }
        table.withLock { $0.fallback = handler }
    }

    /// Sets what opens `http` and `https` URLs: the web container.
    public func setWebContainer(_ handler: RouteHandler?) {
        if let scope {
            scope.breach("set the web container")
            return
        }
        table.withLock { $0.webContainer = handler }
    }

    /// Adds an interceptor; its priority must be unique.
    public func addInterceptor(_ interceptor: any RouteInterceptor) throws {
        if let scope { throw scope.breach("add the interceptor '\(interceptor.name)'") }
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
        if let scope {
            scope.breach("replace the degrade table")
            return
        }
        table.withLock { $0.degrade = degrade }
    }

    /// Allows routes of `schemes` only (the app's own; `http` and `https` stay the web container's): a
    /// registration of any other scheme is refused. Nil allows any (the default, for tests and demos).
    public func setAllowedSchemes(_ schemes: Set<String>?) {
        if let scope {
            scope.breach("set the schemes routes may use")
            return
        }
        table.withLock { $0.schemes = schemes.map { Set($0.map { $0.lowercased() }) } }
    }

    /// Sets who hears what went past the routes: misses, degraded routes, refused links, unknown services.
    public func setObserver(_ observer: (@Sendable (RoutingEvent) -> Void)?) {
        if let scope {
            scope.breach("set the routing observer")
            return
        }
        table.withLock { $0.observer = observer }
        if let observer {
            services.setObserver { service in observer(.unknownService(service)) }
        } else {
            services.setObserver(nil)
        }
    }

    /// Tells the observer, if any, about `event`.
    func observe(_ event: RoutingEvent) {
        table.withLock { $0.observer }?(event)
    }

    /// Sets what checks the signature of links from outside the app; without one, they are all refused.
    public func setExternalLinkVerifier(_ verifier: (any ExternalLinkVerifier)?) {
        if let scope {
            scope.breach("set the external link verifier")
            return
        }
        table.withLock { $0.verifier = verifier }
    }

    /// The whole route table, sorted by pattern.
    public var routes: [RouteDescription] {
        table.withLock { table in
            table.entries.indices.filter { !table.removed.contains($0) }.map { table.entries[$0].description }
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

    func lookup(_ url: RouteURL) -> RouteMatch? {
        withSnapshot { $0.lookup(url) }
    }

    /// Runs `body` on the current snapshot without a lock, publishing a new one first if the routes changed.
    private func withSnapshot<R>(_ body: (RouteSnapshot) -> R) -> R {
        publisher.read(body) {
            table.withLock { table in
                if let current = table.snapshot { return current }
                let fresh = RouteSnapshot(trie: table.trie, entries: table.entries)
                table.snapshot = fresh
                if publisher.publish(fresh) { table.retired.removeAll() }
                return fresh
            }
        }
    }

    /// Changes the routes under the lock, withdraws the published snapshot and retires it.
    private func changeRoutes<R>(_ body: (inout Table) throws -> R) rethrows -> R {
        try table.withLock { table in
            let result = try body(&table)
            if let current = table.snapshot {
                table.retired.append(current)
                table.snapshot = nil
            }
            if publisher.withdraw() { table.retired.removeAll() }
            return result
        }
    }
}
