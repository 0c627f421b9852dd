/// A route pattern such as `shop://product/<int:id>`, parsed into segments.
///
/// Segment syntax: a literal (`list`), a parameter (`:id`), a typed parameter (`<int:id>`,
/// `<uuid:token>` or a custom type), or a trailing wildcard (`*` or `*rest`) that takes one or
/// more remaining segments. The scheme and host are literal and case-insensitive.
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
        guard let separator = text.range(of: "://") else {
            throw RouterError.invalidPattern(text, reason: "it has no scheme; write it like 'shop://product/:id'")
        }
        let scheme = String(text[..<separator.lowerBound])
        guard RouteURL.isValidScheme(scheme) else {
            throw RouterError.invalidPattern(text, reason: "'\(scheme)' is not a valid scheme")
        }
        let rest = text[separator.upperBound...]
        guard !rest.contains("?"), !rest.contains("#") else {
            throw RouterError.invalidPattern(text, reason: "a pattern has no query or fragment; query parameters reach every route")
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let host = parts.first, !host.isEmpty else {
            throw RouterError.invalidPattern(text, reason: "it has no host; the host is the route's first level")
        }
        guard !"*:<".contains(host.first ?? " ") else {
            throw RouterError.invalidPattern(text, reason: "the host '\(host)' must be literal")
        }
        var segments: [Segment] = []
        var names = Set<String>()
        for (offset, part) in parts.dropFirst().enumerated() {
            let segment = try Self.parseSegment(part, in: text)
            if case .wildcard = segment, offset != parts.count - 2 {
                throw RouterError.invalidPattern(text, reason: "a wildcard '\(part)' must be the last segment")
            }
            if let name = segment.captureName, !names.insert(name).inserted {
                throw RouterError.invalidPattern(text, reason: "the parameter name '\(name)' is used twice")
            }
            segments.append(segment)
        }
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
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

    private static func parseSegment(_ part: String, in text: String) throws -> Segment {
        if part.hasPrefix("*") {
            let name = String(part.dropFirst())
            guard name.isEmpty || isIdentifier(name) else {
                throw RouterError.invalidPattern(text, reason: "the wildcard name '\(name)' is not an identifier")
            }
            return .wildcard(name.isEmpty ? "*" : name)
        }
        if part.hasPrefix(":") {
            let name = String(part.dropFirst())
            guard isIdentifier(name) else {
                throw RouterError.invalidPattern(text, reason: "the parameter name '\(name)' is not an identifier")
            }
            return .parameter(name)
        }
        if part.hasPrefix("<") {
            let inner = part.dropFirst().dropLast()
            let pieces = inner.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard part.hasSuffix(">"), pieces.count == 2, isIdentifier(pieces[0]), isIdentifier(pieces[1]) else {
                throw RouterError.invalidPattern(text, reason: "'\(part)' is not a typed parameter; write it like '<int:id>'")
            }
            return .typed(name: pieces[1], type: pieces[0])
        }
        guard !part.contains(where: { "<>:*".contains($0) }) else {
            throw RouterError.invalidPattern(text, reason: "the literal '\(part)' contains one of '<', '>', ':', '*'")
        }
        guard let decoded = PercentCoding.decode(Substring(part), plusIsSpace: false) else {
            throw RouterError.invalidPattern(text, reason: "the literal '\(part)' has an invalid percent-encoding")
        }
        return .literal(decoded)
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0 == "_" || ("0"..."9").contains($0) }
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
