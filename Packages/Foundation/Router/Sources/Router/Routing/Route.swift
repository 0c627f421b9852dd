/// A typed route: one declaration both parses a URL and builds one, so callers never write URL strings.
///
/// Declare the pattern and the stored properties; `Codable` does the rest. Properties named in
/// the pattern fill its captures; the others travel as query parameters:
///
/// ```swift
/// public struct ProductDetail: Route {
///     public static let pattern: RoutePattern = "myapp://product/<int:id>"
///     public var id: Int
/// }
/// let url = try ProductDetail(id: 7).url()   // "myapp://product/7"
/// ```
public protocol Route: Codable, Sendable {
    /// The pattern this route is registered under.
    static var pattern: RoutePattern { get }
}

extension Route {
    /// Builds this route's URL.
    public func url() throws -> String {
        try Self.pattern.url(with: FlatParameterEncoder().encode(self))
    }

    /// Decodes the route from a request's merged parameters (path parameters win over query ones).
    public init(request: RouteRequest) throws {
        try self.init(parameters: request.parameters, url: request.url.original)
    }

    /// Decodes the route from a flat parameter dictionary.
    public init(parameters: [String: String], url: String = "") throws {
        do {
            try self.init(from: FlatParameterDecoder(values: parameters))
        } catch let error as DecodingError {
            throw RouterError.badParameters(url: url, route: "\(Self.self)", reason: error.routeReason)
        }
    }
}

extension DecodingError {
    var routeReason: String {
        switch self {
        case .keyNotFound(let key, _): "parameter '\(key.stringValue)' is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "parameter '\(context.codingPath.last?.stringValue ?? "?")' is not a valid \(type)"
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(self)"
        }
    }
}
