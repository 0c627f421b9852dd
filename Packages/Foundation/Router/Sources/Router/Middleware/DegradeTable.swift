public import Foundation

/// Switches native routes to an H5 page or another route at run time, without a release: the way to
/// take a broken component offline. A bundled default can be replaced by a file.
public struct DegradeTable: Sendable, Equatable, Codable {
    /// One switched route.
    public struct Rule: Sendable, Equatable, Codable {
        /// The route's pattern, such as `myapp://order/<int:id>`: it matches the registered route of the same
        /// shape, whatever its parameters are called (`myapp://order/<int:orderID>` is the same route).
        public var pattern: String
        /// Where to go instead: an `https://` page or another app URL; `{name}` takes the value of the
        /// parameter `name` of this rule's pattern (or of the registered route's, which sits at the same place).
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
    /// Raised by each new version of a table served from a URL: the App never takes an older one.
    public var sequence: Int?

    /// A table with `rules`.
    public init(rules: [Rule] = [], sequence: Int? = nil) {
        self.rules = rules
        self.sequence = sequence
    }

    /// Reads a table from JSON (`{"rules": [{"pattern": ..., "target": ...}]}`; unknown fields are ignored, so
    /// an older App reads a newer table), naming what is wrong.
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

    /// The rules whose pattern has the shape of no route in `routes`: they would never apply.
    public func unmatchedRules(among routes: [RouteDescription]) -> [Rule] {
        let shapes = Set(routes.compactMap { try? RoutePattern(parsing: $0.pattern).shape })
        return rules.filter { rule in (try? RoutePattern(parsing: rule.pattern)).map { !shapes.contains($0.shape) } ?? true }
    }

    /// The rule of `request`'s route and where it goes instead, or nil when its route is not degraded.
    func rule(for request: RouteRequest) -> (Rule, String)? {
        guard !rules.isEmpty, let registered = request.pattern, case let shape = registered.shape else { return nil }
        for rule in rules {
            guard let pattern = try? RoutePattern(parsing: rule.pattern), pattern.shape == shape else { continue }
            // Same shape, same places: the rule's n-th capture is the registered route's n-th.
            var values: [String: String] = [:]
            for (ruleName, registeredName) in zip(pattern.captureNames, registered.captureNames) {
                guard let value = request.pathParameters[registeredName] else { continue }
                values[registeredName] = value
                values[ruleName] = value
            }
            var target = rule.target
            for (name, value) in values { target = target.replacingOccurrences(of: "{\(name)}", with: PercentCoding.encode(value)) }
            return (rule, target)
        }
        return nil
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

    public var description: String { "Degrade table '\(source)' is not usable: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)." }
}

/// Checks links that come from outside the app (deep links, push, web pages).
public protocol ExternalLinkVerifier: Sendable {
    /// Throws a description of what is wrong when `url` is not validly signed or has expired.
    func verify(_ url: RouteURL) throws
}
