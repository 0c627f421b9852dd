/// The bounds of one runtime plugin: the router, services, events and plugin registry it is given are
/// narrowed to them (``Router/narrowed(to:)``).
///
/// Within its bounds a plugin registers the route patterns its manifest declares, and services, always
/// as itself; unregisters only what it owns; and does so only while it loads. It never adds
/// interceptors or parameter types, never sets the fallback, the web container, the degrade table, the
/// schemes, the observer or the link verifier, and never changes the plugin registry. What it publishes
/// while it loads is held until its load is accepted (``accept(reportingLateBreaches:)``) and dropped,
/// with its subscriptions, when it is refused or turned off (``revoke(on:)``).
///
/// This is a check on honest plugins and a guard against mistakes, not a sandbox: a plugin is native
/// code in the App's process, trusted because a trusted key signed it.
public final class PluginScope: Sendable {
    /// The plugin's id: the owner of everything it registers.
    public let owner: String
    /// What the App runs around every call into the plugin's code.
    public let calls: PluginCalls
    /// The shapes of the declared patterns, to the pattern as declared.
    private let declared: [String: String]

    private struct State: Sendable {
        var accepted = false
        /// Refused at load or turned off later: what it publishes is dropped, what it subscribes ended.
        var revoked = false
        var breaches: [String] = []
        var held: [@Sendable () -> Void] = []
        var subscriptions: [SubscriptionToken] = []
        var lateBreach: (@Sendable (String) -> Void)?
    }

    private let state = Locked(State())

    /// A scope for the plugin `owner`, which declares `patterns`; throws for a malformed pattern.
    public init(owner: String, patterns: [String], calls: PluginCalls = PluginCalls()) throws {
        self.owner = owner
        self.calls = calls
        var declared: [String: String] = [:]
        for pattern in patterns { declared[try RoutePattern(parsing: pattern).shape] = pattern }
        self.declared = declared
    }

    /// What the plugin tried beyond its bounds while it loaded, in order.
    public var breaches: [String] { state.withLock { $0.breaches } }

    /// Accepts the load: held events are delivered, and from now on every registration is refused and
    /// `report`ed (a plugin registers while it loads, never later).
    public func accept(reportingLateBreaches report: @escaping @Sendable (String) -> Void) {
        let held = state.withLock { state in
            state.accepted = true
            state.lateBreach = report
            defer { state.held = [] }
            return state.held
        }
        for deliver in held { deliver() }
    }

    /// Refuses the load, or turns the plugin off after it: held events are dropped, the plugin's
    /// subscriptions on `bus` ended, and from now on what it publishes or subscribes goes nowhere.
    public func revoke(on bus: EventBus) {
        let tokens = state.withLock { state in
            state.held = []
            state.accepted = true
            state.revoked = true
            defer { state.subscriptions = [] }
            return state.subscriptions
        }
        for token in tokens { bus.unsubscribe(token) }
    }

    /// Records `action` as beyond the plugin's bounds and returns the error to throw for it.
    @discardableResult
    func breach(_ action: String) -> RouterError {
        let (late, report) = state.withLock { state in
            state.breaches.append(action)
            return (state.accepted, state.lateBreach)
        }
        if late { report?(action) }
        return .outsidePluginScope(plugin: owner, action: action, late: late)
    }

    /// Refuses a registration after the load, or of `what` for an owner other than the plugin.
    func permitRegistration(of what: String, owner: String) throws(RouterError) {
        if state.withLock({ $0.accepted }) { throw breach("register \(what) after its load finished") }
        if owner != self.owner { throw breach("register \(what) for '\(owner)'") }
    }

    /// Refuses `route` unless the manifest declares its shape; wraps its handler in the plugin's call marks.
    func permit(_ route: RouteRegistration) throws(RouterError) -> RouteRegistration {
        try permitRegistration(of: "the route \(route.pattern.text)", owner: route.owner)
        guard declared[route.pattern.shape] != nil else { throw breach("register the route \(route.pattern.text), which its manifest does not declare") }
        let handler = route.handler
        let calls = calls
        return RouteRegistration(pattern: route.pattern, owner: route.owner, options: route.options) { request in
            try await calls.run { try await handler(request) }
        }
    }

    /// Holds `deliver` while the plugin loads, drops it once the plugin is revoked; returns false when it may run at once.
    func hold(_ deliver: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            if state.revoked { return true }
            guard !state.accepted else { return false }
            state.held.append(deliver)
            return true
        }
    }

    /// Records a subscription the plugin made, to end it if the plugin is revoked; false when it is already.
    func record(_ token: SubscriptionToken) -> Bool {
        state.withLock { state in
            guard !state.revoked else { return false }
            state.subscriptions.append(token)
            return true
        }
    }
}

/// Marks around every call into one plugin's code, so that a crash is laid at the door of the plugin
/// whose code was running. The default marks nothing.
public struct PluginCalls: Sendable {
    private let enter: @Sendable () -> Void
    private let leave: @Sendable () -> Void

    /// Marks that run `enter` before and `leave` after each call.
    public init(enter: @escaping @Sendable () -> Void = {}, leave: @escaping @Sendable () -> Void = {}) {
        self.enter = enter
        self.leave = leave
    }

    /// Runs `body` between the marks.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        enter()
        defer { leave() }
        return try body()
    }

    /// Runs the asynchronous `body` between the marks.
    public func run<R>(_ body: () async throws -> R) async rethrows -> R {
        enter()
        defer { leave() }
        return try await body()
    }
}
