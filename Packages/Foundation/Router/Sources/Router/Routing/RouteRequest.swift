public import Foundation

/// Where an open came from; external origins are the ones a user or another app can forge.
public enum RouteOrigin: String, Sendable, CaseIterable {
    /// A link inside the app: trusted.
    case inApp = "in-app"
    /// A deep link from outside the app.
    case deepLink = "deep-link"
    /// A push notification.
    case push
    /// A link on a web page shown in the web container.
    case webPage = "web-page"
}

/// Everything a route handler gets: the URL, its parameters, extra arguments and the origin.
public struct RouteRequest: Sendable {
    /// The URL being opened.
    public let url: RouteURL
    /// The pattern that matched, or nil for the fallback and the web container.
    public let pattern: RoutePattern?
    /// The component that owns the matched route, or nil.
    public let owner: String?
    /// The values captured by the pattern, percent-decoded.
    public let pathParameters: [String: String]
    /// Values that are not strings, passed by the caller alongside the URL.
    public let arguments: [String: any Sendable]
    /// Where the open came from.
    public let origin: RouteOrigin
    /// What the matched route declared (default options for the fallback and the web container).
    public let options: RouteOptions

    /// Creates a request; the router makes these, tests may too.
    public init(
        url: RouteURL, pattern: RoutePattern? = nil, owner: String? = nil, pathParameters: [String: String] = [:],
        arguments: [String: any Sendable] = [:], origin: RouteOrigin = .inApp, options: RouteOptions = RouteOptions()
    ) {
        self.url = url
        self.pattern = pattern
        self.owner = owner
        self.pathParameters = pathParameters
        self.arguments = arguments
        self.origin = origin
        self.options = options
    }

    init(url: RouteURL, match: RouteMatch, arguments: [String: any Sendable], origin: RouteOrigin) {
        self.init(
            url: url, pattern: match.pattern, owner: match.owner, pathParameters: match.pathParameters,
            arguments: arguments, origin: origin, options: match.options)
    }

    /// The query parameters (first value of each name).
    public var query: [String: String] { url.query }

    /// Query parameters merged with path parameters; a path parameter always wins over a query one.
    public var parameters: [String: String] {
        url.query.merging(pathParameters) { _, path in path }
    }

    /// The merged parameter `name`, path first, then query.
    public subscript(name: String) -> String? {
        pathParameters[name] ?? url.query[name]
    }

    /// The parameter `name` as an integer, or nil when absent or not an integer.
    public func int(_ name: String) -> Int? { self[name].flatMap { Int($0) } }

    /// The parameter `name` as a UUID, or nil when absent or malformed.
    public func uuid(_ name: String) -> UUID? { self[name].flatMap { UUID(uuidString: $0) } }

    /// The extra argument `name` if it is a `T`.
    public func argument<T>(_ name: String, as type: T.Type = T.self) -> T? { arguments[name] as? T }
}

/// What a route handler does with a request: returns a value (a screen, a service result) or nil.
public typealias RouteHandler = @Sendable (RouteRequest) async throws -> (any Sendable)?

/// One row of the route table.
public struct RouteDescription: Sendable, Hashable {
    /// The pattern as registered.
    public let pattern: String
    /// The component that registered it.
    public let owner: String
    /// Whether external links may open it.
    public let isPublic: Bool
    /// Its labels, sorted.
    public let labels: [String]

    /// Creates a row.
    public init(pattern: String, owner: String, isPublic: Bool = false, labels: [String] = []) {
        self.pattern = pattern
        self.owner = owner
        self.isPublic = isPublic
        self.labels = labels
    }
}
