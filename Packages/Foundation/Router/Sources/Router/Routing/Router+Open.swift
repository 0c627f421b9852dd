extension Router {
    /// Opens `url`: the matched route's handler, else the web container for http(s), else the fallback.
    ///
    /// Throws ``RouterError/invalidURL(_:reason:)`` for a malformed URL and ``RouterError/noRoute(_:)``
    /// when nothing handles it; errors thrown by the handler pass through.
    /// A link from outside the app must reach a public route and be validly signed (`signatureChecked`:
    /// the caller checked it already with ``checkSignature(ofExternalLink:origin:)``, before a module may
    /// have rewritten it); interceptors run before the handler; a degraded route goes where the degrade
    /// table says.
    public func open(
        _ url: String, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp, signatureChecked: Bool = false
    ) async throws -> (any Sendable)? {
        try await open(url, arguments: arguments, origin: origin, signatureChecked: signatureChecked, hops: 0)
    }

    /// Checks the signature of `url`, a link from outside (`origin`), as ``open(_:arguments:origin:signatureChecked:)``
    /// would; throws ``RouterError/badLinkSignature(url:reason:)``. A one-time link counts as used.
    public func checkSignature(ofExternalLink url: String, origin: RouteOrigin) throws {
        guard origin != .inApp else { return }
        let parsed = try RouteURL(url, limits: limits)
        guard let verifier = table.withLock({ $0.verifier }) else {
            throw refused(RouterError.badLinkSignature(url: url, reason: "the app verifies no external links"))
        }
        do {
            try verifier.verify(parsed)
        } catch {
            throw refused(RouterError.badLinkSignature(url: url, reason: "\(error)"))
        }
    }

    private func open(
        _ url: String, arguments: [String: any Sendable], origin: RouteOrigin, signatureChecked: Bool, hops: Int
    ) async throws -> (any Sendable)? {
        guard hops <= 8 else { throw RouterError.tooManyRedirects(url) }
        let parsed = try RouteURL(url, limits: limits)
        let (web, fallback, degrade, interceptors) = table.withLock { ($0.webContainer, $0.fallback, $0.degrade, $0.interceptors) }
        guard let match = lookup(parsed) else {
            let request = RouteRequest(url: parsed, arguments: arguments, origin: origin)
            if parsed.isWeb, let web {
                guard origin == .inApp else { throw refused(RouterError.notPublic(url: url, origin: origin.rawValue)) }
                return try await web(request)
            }
            // A link from outside reaches public routes only: nothing unmatched answers it (a fallback
            // could open a web page or install software on its say-so).
            guard origin == .inApp else { throw refused(RouterError.noRoute(url, origin: origin.rawValue)) }
            observe(.noRoute(url: url, origin: origin))
            guard let fallback else { throw RouterError.noRoute(url) }
            return try await fallback(request)
        }
        let request = RouteRequest(url: parsed, match: match, arguments: arguments, origin: origin)
        if origin != .inApp {
            guard request.options.isPublic else { throw refused(RouterError.notPublic(url: url, origin: origin.rawValue)) }
            if !signatureChecked { try checkSignature(ofExternalLink: url, origin: origin) }
        }
        if let (rule, target) = degrade.rule(for: request) {
            observe(.degraded(url: url, pattern: request.pattern?.text ?? rule.pattern, target: target, reason: rule.reason))
            if let targetURL = try? RouteURL(target, limits: limits), targetURL.isWeb, let web {
                return try await web(RouteRequest(url: targetURL, arguments: arguments, origin: .inApp))
            }
            return try await open(target, arguments: arguments, origin: .inApp, signatureChecked: false, hops: hops + 1)
        }
        for interceptor in interceptors where interceptor.scope.applies(to: request) {
            switch await InterceptorDecision.run(interceptor, on: request, timeout: interceptorTimeout).0 {
            case .proceed: continue
            case .redirect(let target): return try await open(target, arguments: arguments, origin: .inApp, signatureChecked: false, hops: hops + 1)
            case .reject(let reason): throw RouterError.rejected(url: url, interceptor: interceptor.name, reason: reason)
            case .timedOut: throw RouterError.interceptorTimedOut(url: url, interceptor: interceptor.name)
            }
        }
        return try await match.entry.handler(request)
    }

    /// Tells the observer of an external link refused for `error`, and returns the error.
    private func refused(_ error: RouterError) -> RouterError {
        observe(.refusedExternalLink(reason: error.description))
        return error
    }

    /// Opens `url` and returns its value as a `V`; throws ``RouterError/unexpectedResult(url:expected:got:)`` otherwise.
    public func open<V>(
        _ url: String, as type: V.Type, arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp, signatureChecked: Bool = false
    ) async throws -> V {
        let value = try await open(url, arguments: arguments, origin: origin, signatureChecked: signatureChecked)
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

}
