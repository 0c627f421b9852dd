/// A parsed router URL: scheme, host, decoded path segments and query items.
///
/// Parsing follows the router's conventions: the scheme and host are case-insensitive and
/// lower-cased; the host is the first level, never a path segment; empty segments are dropped,
/// so a trailing or doubled slash does not matter; each segment is percent-decoded after
/// splitting (so `%2F` stays inside its segment) and `+` in a path stays `+`; in the query,
/// `+` means a space, as in HTML forms.
public struct RouteURL: Sendable, Hashable, CustomStringConvertible {
    /// The lower-cased scheme, such as `shop` or `https`.
    public let scheme: String
    /// The lower-cased host: the first level of a business URL (`product` in `shop://product/7`).
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
        guard text.utf8.count <= limits.maxURLLength else {
            throw RouterError.invalidURL(String(text.prefix(80)) + "…", reason: "it is longer than \(limits.maxURLLength) bytes")
        }
        guard !text.utf8.contains(0) else {
            throw RouterError.invalidURL(text, reason: "it contains a NUL character")
        }
        guard let separator = text.range(of: "://") else {
            throw RouterError.invalidURL(text, reason: "it has no scheme; write it like 'shop://product/7'")
        }
        let scheme = String(text[..<separator.lowerBound])
        guard Self.isValidScheme(scheme) else {
            throw RouterError.invalidURL(text, reason: "'\(scheme)' is not a valid scheme (a letter, then letters, digits, '+', '-' or '.')")
        }
        var rest = Substring(text[separator.upperBound...])
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let host = PercentCoding.decode(rest[..<hostEnd], plusIsSpace: false) else {
            throw RouterError.invalidURL(text, reason: "its host has an invalid percent-encoding")
        }
        var segments: [String] = []
        for raw in rest[hostEnd...].split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = PercentCoding.decode(raw, plusIsSpace: false) else {
                throw RouterError.invalidURL(text, reason: "path segment '\(raw)' has an invalid percent-encoding")
            }
            segments.append(segment)
            guard segments.count <= limits.maxSegments else {
                throw RouterError.invalidURL(text, reason: "it has more than \(limits.maxSegments) path segments")
            }
        }
        var items: [QueryItem] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let name = PercentCoding.decode(rawName, plusIsSpace: true),
                  let value = PercentCoding.decode(rawValue, plusIsSpace: true) else {
                throw RouterError.invalidURL(text, reason: "query item '\(pair)' has an invalid percent-encoding")
            }
            items.append(QueryItem(name: name, value: value))
        }
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.segments = segments
        self.queryItems = items
        self.fragment = fragment
        self.original = text
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

    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }
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

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
