/// A trie over a URL's levels: the scheme, the host, then each path segment.
///
/// At each segment matching tries, in order: the literal child, the typed parameter children
/// (by type precedence, then name), the plain parameter child, and last a trailing wildcard; a
/// dead end backtracks to the next choice. The order is fixed by the shape of the routes, so
/// the result never depends on the order they were registered in.
///
/// Nodes live in flat arrays and literal edges in one hash table, so a copy is a few buffer
/// references and a lookup runs over the URL's bytes without building strings.
struct RouteTrie: Sendable {
    /// One node; -1 means "none" in every field.
    struct Node: Sendable {
        var terminal: Int32 = -1
        var wildcard: Int32 = -1
        var parameter: Int32 = -1
        /// An index into `typedEdges`.
        var typed: Int32 = -1
        var hasLiterals = false
    }

    struct TypedEdge: Sendable {
        var type: ParameterType
        var child: Int32
    }

    private var nodes = [Node()]
    private var literals = LiteralEdges()
    /// The typed edges of each node that has any, sorted by type.
    private var typedEdges: [[TypedEdge]] = []

    /// Makes room for `count` more routes at once: a literal edge each, as most routes add, and
    /// two nodes each (a route with a parameter adds two; room never used is never touched).
    mutating func reserveCapacity(forAdding count: Int) {
        let needed = nodes.count + 2 * count
        if needed > nodes.capacity { nodes.reserveCapacity(max(needed, nodes.capacity * 2)) }
        literals.reserveCapacity(forAdding: count)
    }

    /// Inserts `pattern` as route `id`; returns the id already there when the shape is taken.
    mutating func insert(_ pattern: RoutePattern, types: [String: ParameterType], id: Int) throws -> Int? {
        try pattern.withParts { parts in
            let scheme = parts.withLevelKey(parts.scheme) { literalEdge(from: 0, $0) }
            let host = parts.withLevelKey(parts.host) { literalEdge(from: scheme.child, $0) }
            var (node, lastEdge): (Int32, Int?) = (host.child, host.slot)
            for part in parts.segments {
                lastEdge = nil
                switch part.kind {
                case .literal:
                    let edge = part.withLiteralBytes(parts.bytes) { literalEdge(from: node, $0) }
                    (node, lastEdge) = (edge.child, edge.slot)
                case .parameter:
                    if nodes[Int(node)].parameter < 0 { nodes[Int(node)].parameter = newNode() }
                    node = nodes[Int(node)].parameter
                case .typed:
                    let typeName = parts.bytes.string(part.type)
                    guard let type = types[typeName] else {
                        let known = types.keys.sorted().joined(separator: ", ")
                        throw RouterError.invalidPattern(pattern.text, reason: "unknown parameter type '\(typeName)'; known types: \(known)")
                    }
                    node = typedChild(of: node, type)
                case .wildcard:
                    if nodes[Int(node)].wildcard >= 0 { return Int(nodes[Int(node)].wildcard) }
                    nodes[Int(node)].wildcard = Int32(id)
                    return nil
                }
            }
            if nodes[Int(node)].terminal >= 0 { return Int(nodes[Int(node)].terminal) }
            setTerminal(Int32(id), of: node, reachedThrough: lastEdge)
            return nil
        }
    }

    /// Removes the route of `pattern`'s shape; returns its id if there was one.
    @discardableResult
    mutating func remove(_ pattern: RoutePattern) -> Int? {
        pattern.withParts { parts in
            guard let scheme = parts.withLevelKey(parts.scheme, { existingLiteralEdge(from: 0, $0) }),
                let host = parts.withLevelKey(parts.host, { existingLiteralEdge(from: scheme.child, $0) })
            else {
                return nil
            }
            var (node, lastEdge): (Int32, Int?) = (host.child, host.slot)
            for part in parts.segments {
                let next: Int32?
                lastEdge = nil
                switch part.kind {
                case .literal:
                    let edge = part.withLiteralBytes(parts.bytes) { existingLiteralEdge(from: node, $0) }
                    (next, lastEdge) = (edge?.child, edge?.slot)
                case .parameter:
                    next = nodes[Int(node)].parameter
                case .typed:
                    let list = nodes[Int(node)].typed
                    let typeName = parts.bytes.string(part.type)
                    next = list < 0 ? nil : typedEdges[Int(list)].first { $0.type.name == typeName }?.child
                case .wildcard:
                    defer { nodes[Int(node)].wildcard = -1 }
                    return nodes[Int(node)].wildcard >= 0 ? Int(nodes[Int(node)].wildcard) : nil
                }
                guard let next, next >= 0 else { return nil }
                node = next
            }
            let removed = nodes[Int(node)].terminal
            setTerminal(-1, of: node, reachedThrough: lastEdge)
            return removed >= 0 ? Int(removed) : nil
        }
    }

    /// Sets the route ending at `node`, and its copy in the slot of the literal edge that leads there.
    private mutating func setTerminal(_ id: Int32, of node: Int32, reachedThrough edgeSlot: Int?) {
        nodes[Int(node)].terminal = id
        if let edgeSlot { literals.setTerminal(id, inSlot: edgeSlot) }
    }

    /// The best route for `levels` (byte ranges of `bytes`: the lower-cased scheme and host, then the non-empty segments);
    /// writes what it captures to `captures` and returns the route id and how many it captured.
    func match(
        _ bytes: UnsafeBufferPointer<UInt8>, levels: UnsafeBufferPointer<ByteRange>, captures: UnsafeMutableBufferPointer<ByteRange>
    ) -> (id: Int, captureCount: Int)? {
        nodes.withUnsafeBufferPointer { nodes in
            typedEdges.withUnsafeBufferPointer { typedEdges in
                literals.withView { literals in
                    var matcher = Matcher(
                        nodes: nodes, typedEdges: typedEdges, literals: literals, bytes: bytes, levels: levels, captures: captures)
                    guard let id = matcher.match(0, level: 0) else { return nil }
                    return (Int(id), matcher.captureCount)
                }
            }
        }
    }

    /// One depth-first search with backtracking, over plain pointers so it counts no references.
    private struct Matcher {
        let nodes: UnsafeBufferPointer<Node>
        let typedEdges: UnsafeBufferPointer<[TypedEdge]>
        let literals: LiteralEdges.View
        let bytes: UnsafeBufferPointer<UInt8>
        let levels: UnsafeBufferPointer<ByteRange>
        let captures: UnsafeMutableBufferPointer<ByteRange>
        var captureCount = 0

        mutating func match(_ node: Int32, level: Int) -> Int32? {
            let current = nodes[Int(node)]
            guard level < levels.count else { return current.terminal >= 0 ? current.terminal : nil }
            let range = levels[level]
            if current.hasLiterals, let edge = literals.edge(from: node, key: UnsafeBufferPointer(rebasing: bytes[range.start..<range.end])) {
                if level + 1 == levels.count {
                    if edge.terminal >= 0 { return edge.terminal }
                } else if let id = match(edge.child, level: level + 1) {
                    return id
                }
            }
            if current.typed >= 0 {
                let value = bytes.string(range)
                for edge in typedEdges[Int(current.typed)] where edge.type.matches(value) {
                    if let id = capture(range, then: edge.child, level: level) { return id }
                }
            }
            if current.parameter >= 0, let id = capture(range, then: current.parameter, level: level) {
                return id
            }
            if current.wildcard >= 0 {
                captures[captureCount] = ByteRange(start: range.start, end: levels[levels.count - 1].end)
                captureCount += 1
                return current.wildcard
            }
            return nil
        }

        private mutating func capture(_ range: ByteRange, then child: Int32, level: Int) -> Int32? {
            captures[captureCount] = range
            captureCount += 1
            if let id = match(child, level: level + 1) { return id }
            captureCount -= 1
            return nil
        }
    }

    private mutating func newNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    /// The literal edge from `node` along `key` (its child and slot), added if there is none yet.
    private mutating func literalEdge(from node: Int32, _ key: UnsafeBufferPointer<UInt8>) -> (child: Int32, slot: Int) {
        let next = Int32(nodes.count)
        let slot = literals.slot(from: node, key: key, orAdd: next)
        let child = literals.child(inSlot: slot)
        if child == next {
            nodes.append(Node())
            nodes[Int(node)].hasLiterals = true
        }
        return (child, slot)
    }

    private func existingLiteralEdge(from node: Int32, _ key: UnsafeBufferPointer<UInt8>) -> (child: Int32, slot: Int)? {
        guard nodes[Int(node)].hasLiterals, let slot = literals.withView({ $0.index(of: node, key, KeyWords(key)) }) else { return nil }
        return (literals.child(inSlot: slot), slot)
    }

    private mutating func typedChild(of node: Int32, _ type: ParameterType) -> Int32 {
        if nodes[Int(node)].typed < 0 {
            typedEdges.append([])
            nodes[Int(node)].typed = Int32(typedEdges.count - 1)
        }
        let list = Int(nodes[Int(node)].typed)
        if let existing = typedEdges[list].first(where: { $0.type == type }) { return existing.child }
        let child = newNode()
        let index = typedEdges[list].firstIndex { type < $0.type } ?? typedEdges[list].endIndex
        typedEdges[list].insert(TypedEdge(type: type, child: child), at: index)
        return child
    }

}
