/// A trie over path segments, keyed first by scheme and host.
///
/// At each segment matching tries, in order: the literal child, the typed parameter children
/// (by type precedence, then name), the plain parameter child, and last a trailing wildcard; a
/// dead end backtracks to the next choice. The order is fixed by the shape of the routes, so
/// the result never depends on the order they were registered in.
struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [String: Node] = [:]
        var typed: [TypedEdge] = []
        /// Zero or one plain-parameter child (an array because a struct cannot hold an optional of itself).
        var parameter: [Node] = []
        var terminal: Int?
        var wildcard: Int?
    }

    struct TypedEdge: Sendable {
        var type: ParameterType
        var node: Node
    }

    /// A successful match: the route id and the captured values in pattern order.
    struct Match: Sendable {
        var id: Int
        var captures: [String]
    }

    private var roots: [String: Node] = [:]

    /// Inserts `pattern` as route `id`; returns the id already there when the shape is taken.
    mutating func insert(_ pattern: RoutePattern, types: [String: ParameterType], id: Int) throws -> Int? {
        let key = pattern.scheme + "://" + pattern.host
        return try Self.insert(pattern.segments[...], into: &roots[key, default: Node()], types: types, id: id, pattern: pattern)
    }

    /// Removes the route of `pattern`'s shape; returns its id if there was one.
    mutating func remove(_ pattern: RoutePattern) -> Int? {
        let key = pattern.scheme + "://" + pattern.host
        guard roots[key] != nil else { return nil }
        return Self.remove(pattern.segments[...], from: &roots[key, default: Node()])
    }

    /// The best route for the URL, or nil.
    func match(_ url: RouteURL) -> Match? {
        guard let root = roots[url.scheme + "://" + url.host] else { return nil }
        var captures: [String] = []
        guard let id = Self.match(url.segments, at: 0, in: root, captures: &captures) else { return nil }
        return Match(id: id, captures: captures)
    }

    private static func insert(
        _ segments: ArraySlice<RoutePattern.Segment>, into node: inout Node,
        types: [String: ParameterType], id: Int, pattern: RoutePattern
    ) throws -> Int? {
        guard let segment = segments.first else {
            if let existing = node.terminal { return existing }
            node.terminal = id
            return nil
        }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let text):
            return try insert(rest, into: &node.literals[text, default: Node()], types: types, id: id, pattern: pattern)
        case .parameter:
            if node.parameter.isEmpty { node.parameter.append(Node()) }
            return try insert(rest, into: &node.parameter[0], types: types, id: id, pattern: pattern)
        case .typed(_, let typeName):
            guard let type = types[typeName] else {
                let known = types.keys.sorted().joined(separator: ", ")
                throw RouterError.invalidPattern(pattern.text, reason: "unknown parameter type '\(typeName)'; known types: \(known)")
            }
            let index: Int
            if let found = node.typed.firstIndex(where: { $0.type == type }) {
                index = found
            } else {
                index = node.typed.firstIndex(where: { type < $0.type }) ?? node.typed.endIndex
                node.typed.insert(TypedEdge(type: type, node: Node()), at: index)
            }
            return try insert(rest, into: &node.typed[index].node, types: types, id: id, pattern: pattern)
        case .wildcard:
            if let existing = node.wildcard { return existing }
            node.wildcard = id
            return nil
        }
    }

    private static func remove(_ segments: ArraySlice<RoutePattern.Segment>, from node: inout Node) -> Int? {
        guard let segment = segments.first else {
            defer { node.terminal = nil }
            return node.terminal
        }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let text):
            guard node.literals[text] != nil else { return nil }
            return remove(rest, from: &node.literals[text, default: Node()])
        case .parameter:
            guard !node.parameter.isEmpty else { return nil }
            return remove(rest, from: &node.parameter[0])
        case .typed(_, let typeName):
            guard let index = node.typed.firstIndex(where: { $0.type.name == typeName }) else { return nil }
            return remove(rest, from: &node.typed[index].node)
        case .wildcard:
            defer { node.wildcard = nil }
            return node.wildcard
        }
    }

    private static func match(_ segments: [String], at index: Int, in node: Node, captures: inout [String]) -> Int? {
        guard index < segments.count else { return node.terminal }
        let segment = segments[index]
        if let child = node.literals[segment], let id = match(segments, at: index + 1, in: child, captures: &captures) {
            return id
        }
        for edge in node.typed where edge.type.matches(segment) {
            captures.append(segment)
            if let id = match(segments, at: index + 1, in: edge.node, captures: &captures) { return id }
            captures.removeLast()
        }
        if let child = node.parameter.first {
            captures.append(segment)
            if let id = match(segments, at: index + 1, in: child, captures: &captures) { return id }
            captures.removeLast()
        }
        if let id = node.wildcard {
            captures.append(segments[index...].joined(separator: "/"))
            return id
        }
        return nil
    }
}
