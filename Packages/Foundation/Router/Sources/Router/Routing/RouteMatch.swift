/// A route that matched a URL, with its captured parameters decoded only when asked for.
///
/// What ``Router/lookup(_:)`` returns: finding a static route this way allocates nothing.
public struct RouteMatch: Sendable {
    /// The table the route was found in; the entry is read only when asked for, so that a lookup
    /// that only needs to know whether a route matched touches no route's memory.
    let snapshot: RouteSnapshot
    let id: Int
    /// The text the capture ranges point into: the URL itself, or its decoded levels joined by `/`.
    let source: String
    let captures: [ByteRange]

    /// The pattern that matched.
    public var pattern: RoutePattern { entry.pattern }
    /// The component that registered the route.
    public var owner: String { entry.owner }
    /// What the route declared.
    public var options: RouteOptions { entry.options }

    /// The names the pattern captures, in order.
    public var parameterNames: [String] { captures.isEmpty ? [] : entry.pattern.captureNames }

    /// The captured value of the parameter `name`, percent-decoded; nil when the pattern has no such capture.
    public func parameter(_ name: String) -> String? {
        guard !captures.isEmpty, let index = entry.pattern.captureIndex(of: name) else { return nil }
        return value(at: index)
    }

    /// Every captured value by name.
    public var pathParameters: [String: String] {
        var result: [String: String] = [:]
        guard !captures.isEmpty else { return result }
        for (index, name) in entry.pattern.captureNames.enumerated() { result[name] = value(at: index) }
        return result
    }

    var entry: RouteRegistration { snapshot.entries[id] }

    private func value(at index: Int) -> String {
        source.withUTF8Bytes { $0.string(captures[index]) }
    }
}
