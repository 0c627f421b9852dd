/// A route pattern such as `shop://product/<int:id>`, parsed into segments.
///
/// Segment syntax: a literal (`list`), a parameter (`:id`), a typed parameter (`<int:id>`,
/// `<uuid:token>` or a custom type), or a trailing wildcard (`*` or `*rest`) that takes one or
/// more remaining segments. The scheme and host are literal; their ASCII letters are case-insensitive.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One segment of a pattern.
    public enum Segment: Sendable, Hashable {
        /// Matches exactly this text (case-sensitive).
        case literal(String)
        /// Matches any one segment and captures it under the name.
        case parameter(String)
        /// Matches one segment accepted by the named type and captures it.
        case typed(name: String, type: String)
        /// Matches one or more trailing segments and captures them, joined by `/`.
        case wildcard(String)
    }

    /// The lower-cased scheme.
    public let scheme: String
    /// The lower-cased host.
    public let host: String
    /// The segments after the host.
    public let segments: [Segment]
    /// The text the pattern was written as.
    public let text: String

    /// Parses a pattern; throws ``RouterError/invalidPattern(_:reason:)``.
    public init(parsing text: String) throws {
        self = try text.withUTF8Bytes { bytes in try RoutePattern(text, bytes: bytes) }
    }

    private init(_ text: String, bytes: UnsafeBufferPointer<UInt8>) throws(RouterError) {
        func fail(_ reason: String) -> RouterError { .invalidPattern(text, reason: reason) }
        var separator = 0
        while separator + 2 < bytes.count
            && !(bytes[separator] == UInt8(ascii: ":") && bytes[separator + 1] == UInt8(ascii: "/") && bytes[separator + 2] == UInt8(ascii: "/")) {
            separator += 1
        }
        guard separator + 2 < bytes.count else { throw fail("it has no scheme; write it like 'shop://product/:id'") }
        let scheme = ByteRange(start: 0, end: separator)
        guard URLLayout.isValidScheme(bytes, scheme) else { throw fail("'\(bytes.string(scheme))' is not a valid scheme") }
        let rest = ByteRange(start: separator + 3, end: bytes.count)
        var slashes = 0
        for byte in bytes[rest.start..<rest.end] {
            if byte == UInt8(ascii: "/") { slashes += 1 }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                throw fail("a pattern has no query or fragment; query parameters reach every route")
            }
        }
        var host: ByteRange?
        var segments: [Segment] = []
        segments.reserveCapacity(slashes)
        var problem: RouterError?
        URLLayout.forEachSegment(bytes, in: rest) { part in
            guard host != nil else {
                guard !Self.startsCapture(bytes[part.start]) else {
                    problem = fail("the host '\(bytes.string(part))' must be literal")
                    return false
                }
                host = part
                return true
            }
            do throws(RouterError) {
                let segment = try Self.parseSegment(bytes, part, in: text)
                if case .wildcard(let name) = segments.last {
                    throw fail("a wildcard '\(name == "*" ? name : "*" + name)' must be the last segment")
                }
                if let name = segment.captureName, segments.contains(where: { $0.captureName == name }) {
                    throw fail("the parameter name '\(name)' is used twice")
                }
                segments.append(segment)
                return true
            } catch {
                problem = error
                return false
            }
        }
        if let problem { throw problem }
        guard let host else { throw fail("it has no host; the host is the route's first level") }
        self.scheme = bytes.lowercasedString(scheme)
        self.host = bytes.lowercasedString(host)
        self.segments = segments
        self.text = text
    }

    /// Parses a literal pattern, stopping the program if it is malformed: for patterns written in code.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The names this pattern captures, in order.
    public var captureNames: [String] { segments.compactMap(\.captureName) }

    /// The text of the pattern.
    public var description: String { text }

    /// The shape of the pattern with capture names erased: two patterns with one shape collide.
    public var shape: String {
        let path = segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .parameter: ":"
            case .typed(_, let type): "<\(type)>"
            case .wildcard: "*"
            }
        }
        return ([scheme + ":/", host] + path).joined(separator: "/")
    }

    /// Builds a URL by filling the captures from `parameters`; other parameters become query items.
    ///
    /// Throws ``RouterError/missingParameter(_:pattern:)`` when a capture has no value.
    public func url(with parameters: [String: String]) throws -> String {
        var text = scheme + "://" + host
        for segment in segments {
            switch segment {
            case .literal(let literal):
                text += "/" + PercentCoding.encode(literal)
            case .parameter(let name), .typed(let name, _):
                guard let value = parameters[name], !value.isEmpty else {
                    throw RouterError.missingParameter(name, pattern: self.text)
                }
                text += "/" + PercentCoding.encode(value)
            case .wildcard(let name):
                guard let value = parameters[name], !value.isEmpty else {
                    throw RouterError.missingParameter(name, pattern: self.text)
                }
                text += "/" + value.split(separator: "/").map { PercentCoding.encode(String($0)) }.joined(separator: "/")
            }
        }
        let captured = Set(captureNames)
        let query = parameters.filter { !captured.contains($0.key) }.sorted { $0.key < $1.key }
        if !query.isEmpty {
            text += "?" + query.map { PercentCoding.encode($0.key) + "=" + PercentCoding.encode($0.value) }.joined(separator: "&")
        }
        return text
    }

    private static func parseSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ part: ByteRange, in text: String) throws(RouterError) -> Segment {
        func fail(_ reason: String) -> RouterError { .invalidPattern(text, reason: reason) }
        let first = bytes[part.start]
        let afterFirst = ByteRange(start: part.start + 1, end: part.end)
        switch first {
        case UInt8(ascii: "*"):
            guard afterFirst.isEmpty || isIdentifier(bytes, afterFirst) else {
                throw fail("the wildcard name '\(bytes.string(afterFirst))' is not an identifier")
            }
            return .wildcard(afterFirst.isEmpty ? "*" : bytes.string(afterFirst))
        case UInt8(ascii: ":"):
            guard isIdentifier(bytes, afterFirst) else {
                throw fail("the parameter name '\(bytes.string(afterFirst))' is not an identifier")
            }
            return .parameter(bytes.string(afterFirst))
        case UInt8(ascii: "<"):
            let inner = ByteRange(start: part.start + 1, end: part.end - 1)
            let colon = bytes[part.start..<part.end].firstIndex(of: UInt8(ascii: ":")) ?? part.end
            let type = ByteRange(start: inner.start, end: min(colon, inner.end))
            let name = ByteRange(start: min(colon + 1, inner.end), end: inner.end)
            guard part.end - part.start >= 2, bytes[part.end - 1] == UInt8(ascii: ">"), colon < inner.end,
                  isIdentifier(bytes, type), isIdentifier(bytes, name) else {
                throw fail("'\(bytes.string(part))' is not a typed parameter; write it like '<int:id>'")
            }
            return .typed(name: bytes.string(name), type: bytes.string(type))
        default:
            let literal = UnsafeBufferPointer(rebasing: bytes[part.start..<part.end])
            var escaped = false
            for byte in literal {
                if startsCapture(byte) || byte == UInt8(ascii: ">") {
                    throw fail("the literal '\(bytes.string(part))' contains one of '<', '>', ':', '*'")
                }
                escaped = escaped || byte == UInt8(ascii: "%")
            }
            guard escaped else { return .literal(bytes.string(part)) }
            guard let decoded = PercentCoding.decode(literal, plusIsSpace: false) else {
                throw fail("the literal '\(bytes.string(part))' has an invalid percent-encoding")
            }
            return .literal(decoded)
        }
    }

    /// `*`, `:` or `<`: the bytes that begin a wildcard or a parameter.
    private static func startsCapture(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "<")
    }

    /// A letter or `_`, then letters, digits or `_`.
    private static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, _ range: ByteRange) -> Bool {
        guard range.start < range.end else { return false }
        let isStart = { (byte: UInt8) in URLLayout.isASCIILetter(byte) || byte == UInt8(ascii: "_") }
        return isStart(bytes[range.start])
            && bytes[range.start..<range.end].allSatisfy { isStart($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension RoutePattern.Segment {
    /// The name this segment captures its value under, if it captures.
    public var captureName: String? {
        switch self {
        case .literal: nil
        case .parameter(let name), .typed(let name, _), .wildcard(let name): name
        }
    }
}
