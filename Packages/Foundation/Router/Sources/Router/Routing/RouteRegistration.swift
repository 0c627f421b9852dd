/// One route to register with ``Router/register(_:)``: the pattern, its owner, its options and its handler.
///
/// A module lists its routes as registrations and registers them in one call, so that either all
/// of them are in the table or, when one is malformed or taken, none is.
public struct RouteRegistration: Sendable {
    /// The parsed pattern.
    public let pattern: RoutePattern
    /// The component that registers the route.
    public let owner: String
    /// What the route declares: whether it is public, its labels.
    public let options: RouteOptions
    /// What opens a URL the route matches.
    public let handler: RouteHandler

    /// A route from a pattern's text; throws ``RouterError/invalidPattern(_:reason:)`` when it is malformed.
    public init(_ pattern: String, owner: String, options: RouteOptions = RouteOptions(), handler: @escaping RouteHandler) throws {
        self.init(pattern: try RoutePattern(parsing: pattern), owner: owner, options: options, handler: handler)
    }

    /// A typed route: the handler gets the route value decoded from the URL.
    public init<R: Route>(
        _ route: R.Type, owner: String, options: RouteOptions = RouteOptions(),
        handler: @escaping @Sendable (R, RouteRequest) async throws -> (any Sendable)?
    ) {
        self.init(pattern: R.pattern, owner: owner, options: options) { request in
            try await handler(try R(request: request), request)
        }
    }

    /// A route from a parsed pattern.
    public init(pattern: RoutePattern, owner: String, options: RouteOptions = RouteOptions(), handler: @escaping RouteHandler) {
        self.pattern = pattern
        self.owner = owner
        self.options = options
        self.handler = handler
    }
}

extension RouteRegistration {
    /// The registration as the route table shows it.
    var description: RouteDescription {
        RouteDescription(pattern: pattern.text, owner: owner, isPublic: options.isPublic, labels: options.labels.sorted())
    }
}
