import Foundation

/// The shape of a route pattern, as the router computes it for its collision check (`RoutePattern.shape`):
/// capture names erased, the scheme and host lower-cased, the host and literal segments percent-decoded,
/// empty segments (a trailing slash, doubled slashes) dropped. Two patterns of one shape collide.
///
/// componentctl builds on its own, without the workspace's router, so it keeps this copy of the
/// definition; the App's tests hold the two to the same answers over a corpus of tricky patterns
/// (`componentctl dev route-shape`).
public enum RouteShape {
    /// The shape of `pattern`.
    public static func of(_ pattern: String) -> String {
        guard let separator = pattern.range(of: "://") else { return pattern }
        var rest = pattern[separator.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let host = asciiLowercased(decoded(parts.first ?? "")[...])
        let path = parts.dropFirst().filter { !$0.isEmpty }.map { part -> String in
            if part.hasPrefix(":") { return ":" }
            if part.hasPrefix("*") { return "*" }
            if part.hasPrefix("<"), part.hasSuffix(">"), let colon = part.firstIndex(of: ":") { return String(part[..<colon]) + ">" }
            return decoded(part)
        }
        return ([pattern[..<separator.lowerBound].lowercased() + ":/", host] + path).joined(separator: "/")
    }

    /// Whether some URL matches both patterns, by the router's rule (`RoutePattern.overlaps`): the same
    /// scheme and host, and segment by segment equal literals, a literal a typed parameter accepts (the
    /// built-in `int` and `uuid` are checked; another type may accept anything), any segment for a
    /// parameter, and one or more segments for a trailing wildcard.
    public static func overlaps(_ first: String, _ second: String) -> Bool {
        guard let mine = Parts(first), let theirs = Parts(second), mine.scheme == theirs.scheme, mine.host == theirs.host else { return false }
        for (left, right) in zip(mine.segments, theirs.segments) {
            if left.isWildcard || right.isWildcard { return true }
            guard left.accepts(right) && right.accepts(left) else { return false }
        }
        return mine.segments.count == theirs.segments.count
    }

    /// A pattern's scheme and host (ASCII letters in lower case, as the router compares them) and its
    /// non-empty segments, literals decoded.
    private struct Parts {
        enum Segment {
            case literal(String)
            /// `:name`, `<type:name>` or `*rest`, as written.
            case capture(String)

            var isWildcard: Bool { if case .capture(let text) = self { text.hasPrefix("*") } else { false } }

            /// Whether a URL segment that `other` matches can be matched by this one (always, unless `other` is a literal).
            func accepts(_ other: Segment) -> Bool {
                guard case .literal(let literal) = other else { return true }
                switch self {
                case .literal(let text): return text == literal
                case .capture(let text):
                    guard text.hasPrefix("<"), let colon = text.firstIndex(of: ":") else { return true }
                    switch text[text.index(after: text.startIndex)..<colon] {
                    case "int": return Int(literal) != nil
                    case "uuid": return UUID(uuidString: literal) != nil
                    default: return true
                    }
                }
            }
        }

        var scheme: String
        var host: String
        var segments: [Segment]

        init?(_ pattern: String) {
            guard let separator = pattern.range(of: "://") else { return nil }
            let parts = pattern[separator.upperBound...].split(separator: "/", omittingEmptySubsequences: false)
            scheme = RouteShape.asciiLowercased(pattern[..<separator.lowerBound])
            host = RouteShape.asciiLowercased(RouteShape.decoded(parts.first ?? "")[...])
            segments = parts.dropFirst().filter { !$0.isEmpty }.map { part in
                part.first.map { ":<*".contains($0) } == true ? .capture(String(part)) : .literal(RouteShape.decoded(part))
            }
        }

    }

    /// `text` with its ASCII letters in lower case, as the router compares schemes and hosts.
    static func asciiLowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// What makes `pattern` no route pattern the App's router accepts, or nil: the router's rules as far
    /// as a pattern's text shows them (a scheme and a literal host, no query or fragment, `:name`,
    /// `<type:name>` and a last `*rest`, each name once).
    public static func problem(of pattern: String) -> String? {
        guard let separator = pattern.range(of: "://"), case let scheme = pattern[..<separator.lowerBound],
            let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return "it has no scheme; write it like 'myapp://product/:id'" }
        let rest = pattern[separator.upperBound...]
        if rest.contains("?") || rest.contains("#") { return "a pattern has no query or fragment" }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty else { return "it has no host; the host is the route's first level" }
        if let mark = host.first, ":<*".contains(mark) { return "the host '\(host)' must be literal" }
        var names = Set<String>()
        let segments = parts.dropFirst().filter { !$0.isEmpty }
        for (index, segment) in segments.enumerated() {
            let name: Substring
            if segment.hasPrefix(":") {
                name = segment.dropFirst()
            } else if segment.hasPrefix("*") {
                guard index == segments.count - 1 else { return "a wildcard '\(segment)' must be the last segment" }
                name = segment.dropFirst()
            } else if segment.hasPrefix("<") {
                guard segment.hasSuffix(">"), let colon = segment.firstIndex(of: ":"),
                    case let type = segment[segment.index(after: segment.startIndex)..<colon], !type.isEmpty
                else { return "'\(segment)' is no typed parameter; write it like '<int:id>'" }
                name = segment[segment.index(after: colon)..<segment.index(before: segment.endIndex)]
            } else {
                continue
            }
            guard !name.isEmpty || segment.hasPrefix("*") else { return "the parameter '\(segment)' has no name" }
            if !name.isEmpty, !names.insert(String(name)).inserted { return "the parameter name '\(name)' is used twice" }
        }
        return nil
    }

    /// `text` with its `%XX` escapes decoded (UTF-8), or as written when an escape is malformed.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                    let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else {
                    return String(text)
                }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }
}
