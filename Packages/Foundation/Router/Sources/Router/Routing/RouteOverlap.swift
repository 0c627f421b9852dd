extension RoutePattern {
    /// Whether some URL matches both this pattern and `other`: the same scheme and host, and segment by
    /// segment a literal equal to the other's literal or accepted by its typed parameter (`accepts`
    /// answers for a type and a literal; an unknown type accepts anything), while a trailing wildcard
    /// takes the one or more segments left.
    public func overlaps(_ other: RoutePattern, accepts: (_ type: String, _ literal: String) -> Bool = { _, _ in true }) -> Bool {
        guard scheme == other.scheme, host == other.host else { return false }
        let mine = segments, theirs = other.segments
        var index = 0
        while index < mine.count, index < theirs.count {
            switch (mine[index], theirs[index]) {
            case (.wildcard, _), (_, .wildcard):
                return true
            case (.literal(let left), .literal(let right)):
                guard left == right else { return false }
            case (.literal(let literal), .typed(_, let type)), (.typed(_, let type), .literal(let literal)):
                guard accepts(type, literal) else { return false }
            default:
                break
            }
            index += 1
        }
        return mine.count == theirs.count
    }
}

extension Router {
    /// A registered route `owner` owns, if any (without building the whole table's descriptions).
    public func anyRoute(ownedBy owner: String) -> RouteDescription? {
        table.withLock { table in
            table.entries.indices.first { !table.removed.contains($0) && table.entries[$0].owner == owner }.map { table.entries[$0].description }
        }
    }

    /// The first registered route (by pattern) some URL of `pattern` would also match, if any: what a
    /// route of `pattern` would shadow or be shadowed by.
    public func overlappingRoute(_ pattern: RoutePattern) -> RouteDescription? {
        let (entries, types) = table.withLock { table in
            (table.entries.indices.filter { !table.removed.contains($0) }.map { table.entries[$0] }, table.types)
        }
        let accepts = { (type: String, literal: String) in types[type]?.matches(literal) ?? true }
        return entries.filter { pattern.overlaps($0.pattern, accepts: accepts) }.min { $0.pattern.text < $1.pattern.text }?.description
    }
}
