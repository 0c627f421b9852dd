/// A route pattern such as `myapp://product/<int:id>`, parsed into segments.
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

    /// The text the pattern was written as; its structure is read from it when asked for.
    public let text: String

    /// The lower-cased scheme.
    public var scheme: String { withParts { $0.withLevelKey($0.scheme) { String(decoding: $0, as: UTF8.self) } } }
    /// The lower-cased host.
    public var host: String { withParts { $0.withLevelKey($0.host) { String(decoding: $0, as: UTF8.self) } } }
    /// The segments after the host.
    public var segments: [Segment] { withParts { parts in parts.segments.map { $0.segment(parts.bytes) } } }

    /// Parses a pattern; throws ``RouterError/invalidPattern(_:reason:)``.
    ///
    /// Only the text is kept: registering a route builds no strings or arrays for its parts.
    public init(parsing text: String) throws {
        try text.withUTF8Bytes { bytes in try Self.validate(text, bytes) }
        self.text = text
    }

    private static func validate(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) throws {
        func fail(_ reason: String) -> RouterError { .invalidPattern(text, reason: reason) }
        guard let schemeEnd = schemeEnd(bytes) else { throw fail("it has no scheme; write it like 'myapp://product/:id'") }
        let scheme = ByteRange(start: 0, end: schemeEnd)
        guard URLLayout.isValidScheme(bytes, scheme) else { throw fail("'\(bytes.string(scheme))' is not a valid scheme") }
        try withParts(of: bytes) { parts in
            guard !parts.hasQueryOrFragment else { throw fail("a pattern has no query or fragment; query parameters reach every route") }
            guard !parts.hasNUL else { throw fail("it contains a NUL byte, which no URL may; write it as %00") }
            guard !parts.host.isEmpty else { throw fail("it has no host; the host is the route's first level") }
            let host = bytes[parts.host.start..<parts.host.end]
            guard !startsCapture(bytes[parts.host.start]) else { throw fail("the host '\(bytes.string(parts.host))' must be literal") }
            if parts.hostIsEscaped && PercentCoding.decode(host, plusIsSpace: false) == nil {
                throw fail("the host '\(bytes.string(parts.host))' has an invalid percent-encoding")
            }
            for (index, part) in parts.segments.enumerated() {
                try validate(part, bytes, fail)
                if index > 0, parts.segments[index - 1].kind == .wildcard {
                    throw fail("a wildcard '\(bytes.string(parts.segments[index - 1].whole))' must be the last segment")
                }
                if part.isCapture, parts.segments[..<index].contains(where: { $0.isCapture && bytes.equal($0.name, part.name) }) {
                    throw fail("the parameter name '\(bytes.string(part.name))' is used twice")
                }
            }
        }
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
    public var captureNames: [String] {
        text.withUTF8Bytes { bytes in
            var names: [String] = []
            Self.forEachCaptureName(bytes) {
                names.append(bytes.string($0)); return true
            }
            return names
        }
    }

    /// The position of the capture named `name` among the captures, or nil; reads the text without allocating.
    func captureIndex(of name: String) -> Int? {
        name.withUTF8Bytes { wanted in
            text.withUTF8Bytes { bytes in
                var (position, found) = (0, false)
                Self.forEachCaptureName(bytes) { capture in
                    found = bytes.equal(capture, to: wanted)
                    if !found { position += 1 }
                    return !found
                }
                return found ? position : nil
            }
        }
    }

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
        var text = scheme + "://" + PercentCoding.encode(host)
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

    private static func validate(
        _ part: Part, _ bytes: UnsafeBufferPointer<UInt8>, _ fail: (String) -> RouterError
    ) throws(RouterError) {
        switch part.kind {
        case .wildcard:
            guard part.name == part.whole || isIdentifier(bytes, part.name) else {
                throw fail("the wildcard name '\(bytes.string(part.name))' is not an identifier")
            }
        case .parameter:
            guard isIdentifier(bytes, part.name) else {
                throw fail("the parameter name '\(bytes.string(part.name))' is not an identifier")
            }
        case .typed:
            guard bytes[part.whole.end - 1] == UInt8(ascii: ">"), part.type.end < part.name.start,
                isIdentifier(bytes, part.type), isIdentifier(bytes, part.name)
            else {
                throw fail("'\(bytes.string(part.whole))' is not a typed parameter; write it like '<int:id>'")
            }
        case .literal:
            let literal = bytes[part.whole.start..<part.whole.end]
            if literal.contains(where: { startsCapture($0) || $0 == UInt8(ascii: ">") }) {
                throw fail("the literal '\(bytes.string(part.whole))' contains one of '<', '>', ':', '*'")
            }
            if part.isEscaped && PercentCoding.decode(literal, plusIsSpace: false) == nil {
                throw fail("the literal '\(bytes.string(part.whole))' has an invalid percent-encoding")
            }
        }
    }

    /// `*`, `:` or `<`: the bytes that begin a wildcard or a parameter.
    static func startsCapture(_ byte: UInt8) -> Bool {
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
