public import Foundation

/// Switches native routes to an H5 page or another route at run time, without a release: the way to
/// take a broken component offline. A bundled default can be replaced by a file.
public struct DegradeTable: Sendable, Equatable, Codable {
    /// One switched route.
    public struct Rule: Sendable, Equatable, Codable {
        /// The route's pattern exactly as registered, such as `shop://order/<int:id>`.
        public var pattern: String
        /// Where to go instead: an `https://` page or another app URL; `{name}` takes the route's parameter.
        public var target: String
        /// Why, for logs.
        public var reason: String?

        /// Creates a rule.
        public init(pattern: String, target: String, reason: String? = nil) {
            self.pattern = pattern
            self.target = target
            self.reason = reason
        }
    }

    /// The rules.
    public var rules: [Rule]

    /// A table with `rules`.
    public init(rules: [Rule] = []) {
        self.rules = rules
    }

    /// Reads a table from JSON (`{"rules": [{"pattern": ..., "target": ...}]}`), naming what is wrong.
    public static func decode(_ data: Data, source: String) throws -> DegradeTable {
        do {
            let table = try JSONDecoder().decode(DegradeTable.self, from: data)
            for rule in table.rules { _ = try RoutePattern(parsing: rule.pattern) }
            return table
        } catch let error as RouterError {
            throw DegradeTableError(source: source, reason: error.description)
        } catch {
            throw DegradeTableError(source: source, reason: "it is not a degrade table (\(error))")
        }
    }

    /// Where `request` goes instead, or nil when its route is not degraded.
    func target(for request: RouteRequest) -> String? {
        guard let pattern = request.pattern?.text, let rule = rules.first(where: { $0.pattern == pattern }) else { return nil }
        var target = rule.target
        for (name, value) in request.pathParameters {
            target = target.replacingOccurrences(of: "{\(name)}", with: PercentCoding.encode(value))
        }
        return target
    }
}

/// A degrade table that cannot be used.
public struct DegradeTableError: Error, Sendable, CustomStringConvertible {
    /// The file or URL it came from.
    public var source: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "Degrade table '\(source)' is not usable: \(reason)." }
}

/// Checks links that come from outside the app (deep links, push, web pages).
public protocol ExternalLinkVerifier: Sendable {
    /// Throws a description of what is wrong when `url` is not validly signed or has expired.
    func verify(_ url: RouteURL) throws
}
