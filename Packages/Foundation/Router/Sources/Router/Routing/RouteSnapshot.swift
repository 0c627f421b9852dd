/// The route table as readers see it: immutable once built, published by the router without a lock.
final class RouteSnapshot: Sendable {
    let trie: RouteTrie
    /// Every route registered, by id; the trie reaches only those not removed.
    let entries: [RouteRegistration]

    /// The outcome of matching a URL on its raw bytes.
    enum FastLookup {
        case matched(RouteMatch)
        case noRoute
        /// It has escapes, capitals in its scheme or host, or empty segments between others, or is
        /// malformed: ``RouteURL`` decides.
        case needsDecoding
    }

    init(trie: RouteTrie, entries: [RouteRegistration]) {
        self.trie = trie
        self.entries = entries
    }

    /// Matches `url` on its UTF-8 bytes where they lie, without decoding or copying them.
    func lookup(_ url: String, limits: RouterLimits) -> FastLookup {
        url.utf8.withContiguousStorageIfAvailable { lookup(url, bytes: $0, limits: limits) } ?? .needsDecoding
    }

    private func lookup(_ url: String, bytes: UnsafeBufferPointer<UInt8>, limits: RouterLimits) -> FastLookup {
        guard let layout = try? URLLayout(bytes, limits: limits), !layout.hasPercent, layout.hasLowercaseSchemeAndHost else {
            return .needsDecoding
        }
        return withUnsafeTemporaryAllocation(of: ByteRange.self, capacity: limits.maxSegments + 2) { levels in
            levels[0] = layout.scheme
            levels[1] = layout.host
            var count = 2
            var simple = true
            URLLayout.forEachSegment(bytes, in: layout.path) { segment in
                // A wildcard captures the rest as it is written, so "a//b" must be decoded to "a/b" first.
                guard count < levels.count, count == 2 || segment.start == levels[count - 1].end + 1 else {
                    simple = false
                    return false
                }
                levels[count] = segment
                count += 1
                return true
            }
            guard simple else { return .needsDecoding }
            guard let match = match(bytes, levels: UnsafeBufferPointer(rebasing: levels[..<count]), source: url) else { return .noRoute }
            return .matched(match)
        }
    }

    /// Matches a parsed URL on its decoded levels.
    func lookup(_ url: RouteURL) -> RouteMatch? {
        var joined: [UInt8] = []
        var levels: [ByteRange] = []
        for level in [url.scheme, url.host] + url.segments {
            if !levels.isEmpty { joined.append(UInt8(ascii: "/")) }
            let start = joined.count
            joined.append(contentsOf: level.utf8)
            levels.append(ByteRange(start: start, end: joined.count))
        }
        let source = String(decoding: joined, as: UTF8.self)
        return joined.withUnsafeBufferPointer { bytes in
            levels.withUnsafeBufferPointer { match(bytes, levels: $0, source: source) }
        }
    }

    private func match(_ bytes: UnsafeBufferPointer<UInt8>, levels: UnsafeBufferPointer<ByteRange>, source: String) -> RouteMatch? {
        withUnsafeTemporaryAllocation(of: ByteRange.self, capacity: levels.count) { captures in
            guard let (id, count) = trie.match(bytes, levels: levels, captures: captures) else { return nil }
            return RouteMatch(snapshot: self, id: id, source: source, captures: count == 0 ? [] : Array(captures[..<count]))
        }
    }
}
