/// A parsed router URL: scheme, host, decoded path segments and query items.
///
/// Parsing follows the router's conventions: the scheme and host are case-insensitive and
/// ASCII-lower-cased; the host is the first level, never a path segment; empty segments are dropped,
/// so a trailing or doubled slash does not matter; each segment is percent-decoded after
/// splitting (so `%2F` stays inside its segment) and `+` in a path stays `+`; in the query,
/// `+` means a space, as in HTML forms.
public struct RouteURL: Sendable, Hashable, CustomStringConvertible {
    /// The lower-cased scheme, such as `myapp` or `https`.
    public let scheme: String
    /// The lower-cased host: the first level of a business URL (`product` in `myapp://product/7`).
    public let host: String
    /// The percent-decoded path segments after the host, without empty ones.
    public let segments: [String]
    /// The decoded query items in their original order; a key may repeat.
    public let queryItems: [QueryItem]
    /// The fragment after `#`, if any, undecoded.
    public let fragment: String?
    /// The text this URL was parsed from.
    public let original: String

    /// One decoded `name=value` pair of a query.
    public struct QueryItem: Sendable, Hashable {
        /// The decoded name.
        public let name: String
        /// The decoded value; empty when the item had no `=`.
        public let value: String

        /// Creates a query item.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Parses `text`, enforcing `limits`; throws ``RouterError/invalidURL(_:reason:)`` with the reason.
    public init(_ text: String, limits: RouterLimits = .default) throws {
        self = try text.withUTF8Bytes { bytes in try RouteURL(text, bytes: bytes, limits: limits) }
    }

    private init(_ text: String, bytes: UnsafeBufferPointer<UInt8>, limits: RouterLimits) throws(RouterError) {
        let layout: URLLayout
        do {
            layout = try URLLayout(bytes, limits: limits)
        } catch {
            throw Self.error(for: error, in: text, bytes: bytes, limits: limits)
        }
        func decode(_ range: ByteRange, plusIsSpace: Bool) -> String? {
            PercentCoding.decode(UnsafeBufferPointer(rebasing: bytes[range.start..<range.end]), plusIsSpace: plusIsSpace)
        }
        guard let host = decode(layout.host, plusIsSpace: false) else {
            throw RouterError.invalidURL(text, reason: "its host has an invalid percent-encoding")
        }
        var segments: [String] = []
        var problem: RouterError?
        URLLayout.forEachSegment(bytes, in: layout.path) { range in
            guard let segment = decode(range, plusIsSpace: false) else {
                problem = .invalidURL(text, reason: "path segment '\(bytes.string(range))' has an invalid percent-encoding")
                return false
            }
            guard segments.count < limits.maxSegments else {
                problem = .invalidURL(text, reason: "it has more than \(limits.maxSegments) path segments")
                return false
            }
            segments.append(segment)
            return true
        }
        if let problem { throw problem }
        var items: [QueryItem] = []
        if let query = layout.query {
            URLLayout.forEachPiece(bytes, in: query, separator: UInt8(ascii: "&")) { pair in
                var equals = pair.start
                while equals < pair.end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = decode(ByteRange(start: pair.start, end: equals), plusIsSpace: true)
                let value = decode(ByteRange(start: min(equals + 1, pair.end), end: pair.end), plusIsSpace: true)
                guard let name, let value else {
                    problem = .invalidURL(text, reason: "query item '\(bytes.string(pair))' has an invalid percent-encoding")
                    return false
                }
                items.append(QueryItem(name: name, value: value))
                return true
            }
        }
        if let problem { throw problem }
        self.scheme = bytes.lowercasedString(layout.scheme)
        self.host = host.withUTF8Bytes { $0.lowercasedString(ByteRange(start: 0, end: $0.count)) }
        self.segments = segments
        self.queryItems = items
        self.fragment = layout.fragment.map(bytes.string)
        self.original = text
    }

    private static func error(for problem: URLLayout.Problem, in text: String, bytes: UnsafeBufferPointer<UInt8>, limits: RouterLimits) -> RouterError {
        switch problem {
        case .tooLong:
            .invalidURL(String(text.prefix(80)) + "…", reason: "it is longer than \(limits.maxURLLength) bytes")
        case .containsNUL:
            .invalidURL(text, reason: "it contains a NUL character")
        case .noScheme:
            .invalidURL(text, reason: "it has no scheme; write it like 'myapp://product/7'")
        case .invalidScheme(let range):
            .invalidURL(text, reason: "'\(bytes.string(range))' is not a valid scheme (a letter, then letters, digits, '+', '-' or '.')")
        }
    }

    /// The first value of each query name (the first occurrence wins when a name repeats).
    public var query: [String: String] {
        var result: [String: String] = [:]
        for item in queryItems where result[item.name] == nil {
            result[item.name] = item.value
        }
        return result
    }

    /// Whether the scheme is `http` or `https`: such URLs go to the web container.
    public var isWeb: Bool { scheme == "http" || scheme == "https" }

    /// The original text.
    public var description: String { original }
}

/// Caps that keep hostile or broken URLs cheap to reject.
public struct RouterLimits: Sendable, Hashable {
    /// The longest URL accepted, in UTF-8 bytes.
    public var maxURLLength: Int
    /// The most path segments accepted after the host.
    public var maxSegments: Int

    /// 4 KiB and 32 segments: far beyond any real route.
    public static let `default` = RouterLimits(maxURLLength: 4096, maxSegments: 32)

    /// Creates limits.
    public init(maxURLLength: Int, maxSegments: Int) {
        self.maxURLLength = maxURLLength
        self.maxSegments = maxSegments
    }
}
