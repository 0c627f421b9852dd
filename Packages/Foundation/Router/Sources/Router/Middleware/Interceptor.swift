/// What a route declares about itself beyond its pattern.
public struct RouteOptions: Sendable, Hashable {
    /// Whether links from outside the app (deep links, push, web pages) may open it; internal by default.
    public var isPublic: Bool
    /// Labels interceptors select routes by, such as `requires-login`.
    public var labels: Set<String>

    /// Creates options.
    public init(isPublic: Bool = false, labels: Set<String> = []) {
        self.isPublic = isPublic
        self.labels = labels
    }
}

/// Which opens an interceptor sees.
public enum InterceptorScope: Sendable, Hashable {
    /// Every matched route.
    case all
    /// Routes registered with this label.
    case labeled(String)
    /// Routes under this host (`order` for `myapp://order/...`).
    case host(String)

    func applies(to request: RouteRequest) -> Bool {
        switch self {
        case .all: true
        case .labeled(let label): request.options.labels.contains(label)
        case .host(let host): request.url.host == host.lowercased()
        }
    }
}

/// Runs before a route's handler and decides: continue, redirect, or reject, exactly once.
///
/// The decision may come after `intercept` returns (from a callback of its own); one that never
/// comes is a timeout, and the interceptor's task is cancelled.
public protocol RouteInterceptor: Sendable {
    /// A name for errors and logs.
    var name: String { get }
    /// Unique among a router's interceptors; higher runs first.
    var priority: Int { get }
    /// Which opens it sees.
    var scope: InterceptorScope { get }
    /// Looks at `request` and calls one of `decision`'s methods once.
    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async
}

/// The one decision an interceptor makes about an open.
public final class InterceptorDecision: Sendable {
    /// What was decided.
    public enum Outcome: Sendable, Equatable {
        case proceed
        case redirect(String)
        case reject(String)
        case timedOut
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome: Outcome?
        var cleanup: (@Sendable () -> Void)?
        var ignoredDecisions = 0
    }

    private let state = Locked(State())

    init() {}

    /// Lets the open go on to the next interceptor and then the handler.
    public func proceed() { decide(.proceed) }
    /// Opens `url` instead (login first, an A/B variant); the redirected open is intercepted again.
    public func redirect(to url: String) { decide(.redirect(url)) }
    /// Stops the open with `reason`.
    public func reject(_ reason: String) { decide(.reject(reason)) }

    /// How many decisions after the first were ignored (each interceptor must decide exactly once).
    public var ignoredDecisions: Int { state.withLock { $0.ignoredDecisions } }

    func decide(_ outcome: Outcome) {
        let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, (@Sendable () -> Void)?) in
            guard state.outcome == nil else {
                state.ignoredDecisions += 1
                return (nil, nil)
            }
            state.outcome = outcome
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        cleanup?()
        continuation?.resume(returning: outcome)
    }

    /// Runs `interceptor` on `request` and waits for its decision, or for `timeout`.
    static func run(_ interceptor: any RouteInterceptor, on request: RouteRequest, timeout: Duration) async -> (Outcome, InterceptorDecision) {
        let decision = InterceptorDecision()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let work = Task { await interceptor.intercept(request, decision) }
            let timer = Task {
                // Cancelled once the interceptor decided: then there is nothing to time out.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                decision.decide(.timedOut)
            }
            let early = decision.state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                state.cleanup = {
                    work.cancel(); timer.cancel()
                }
                return nil
            }
            if let early {
                work.cancel()
                timer.cancel()
                continuation.resume(returning: early)
            }
        }
        return (outcome, decision)
    }
}
