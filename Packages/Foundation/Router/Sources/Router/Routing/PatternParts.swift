extension RoutePattern {
    /// A pattern's levels as byte ranges of its text: what the trie inserts, read without building strings.
    struct Parts {
        let bytes: UnsafeBufferPointer<UInt8>
        let scheme: ByteRange
        /// Empty when the pattern has no host (only in a pattern being validated).
        let host: ByteRange
        let segments: UnsafeBufferPointer<Part>
        /// What the one scan saw, so that neither validation nor insertion reads the bytes again for it.
        let hostIsEscaped: Bool
        let hasQueryOrFragment: Bool
        let hasNUL: Bool
    }

    /// One segment after the host, classified by its first byte.
    struct Part {
        enum Kind { case literal, parameter, typed, wildcard }

        let kind: Kind
        /// The whole segment as written.
        let whole: ByteRange
        /// What a capture is named (`*` for a wildcard without a name); for a literal, the whole segment.
        let name: ByteRange
        /// A typed parameter's type; empty otherwise.
        let type: ByteRange
        /// Whether the segment has a `%`.
        let isEscaped: Bool

        init(_ bytes: UnsafeBufferPointer<UInt8>, _ whole: ByteRange, isEscaped: Bool) {
            self.whole = whole
            self.isEscaped = isEscaped
            let afterFirst = ByteRange(start: whole.start + 1, end: whole.end)
            switch bytes[whole.start] {
            case UInt8(ascii: "*"):
                (kind, name, type) = (.wildcard, afterFirst.isEmpty ? whole : afterFirst, ByteRange(start: 0, end: 0))
            case UInt8(ascii: ":"):
                (kind, name, type) = (.parameter, afterFirst, ByteRange(start: 0, end: 0))
            case UInt8(ascii: "<"):
                let inner = ByteRange(start: afterFirst.start, end: max(afterFirst.start, whole.end - 1))
                let colon = bytes[inner.start..<inner.end].firstIndex(of: UInt8(ascii: ":")) ?? inner.end
                kind = .typed
                type = ByteRange(start: inner.start, end: colon)
                name = ByteRange(start: min(colon + 1, inner.end), end: inner.end)
            default:
                (kind, name, type) = (.literal, whole, ByteRange(start: 0, end: 0))
            }
        }

        var isCapture: Bool { kind != .literal }

        /// The literal's text with escapes decoded, handed to `body` as bytes; copies only an escaped literal.
        func withLiteralBytes<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try RoutePattern.withDecoded(bytes, whole, isEscaped: isEscaped, body)
        }

        /// The segment as the public ``RoutePattern/Segment`` enumeration.
        func segment(_ bytes: UnsafeBufferPointer<UInt8>) -> Segment {
            switch kind {
            case .literal: .literal(withLiteralBytes(bytes) { String(decoding: $0, as: UTF8.self) })
            case .parameter: .parameter(bytes.string(name))
            case .typed: .typed(name: bytes.string(name), type: bytes.string(type))
            case .wildcard: .wildcard(bytes.string(name))
            }
        }
    }

    /// Runs `body` over this pattern's parts.
    func withParts<R>(_ body: (Parts) throws -> R) rethrows -> R {
        try text.withUTF8Bytes { bytes in try Self.withParts(of: bytes, body) }
    }

    /// Splits `bytes` at `://` and `/` into scheme, host and segments.
    ///
    /// Splitting never fails: whether the parts are well-formed is checked once, when the pattern
    /// is parsed, so reading an accepted pattern's parts has no error to report. (Without a `://`
    /// the scheme is empty and the host is the first segment.)
    static func withParts<R>(of bytes: UnsafeBufferPointer<UInt8>, _ body: (Parts) throws -> R) rethrows -> R {
        let separator = schemeEnd(bytes)
        let restStart = separator.map { $0 + 3 } ?? 0
        // Segments are at least one byte and a slash each: no need to count them first.
        return try withUnsafeTemporaryAllocation(of: Part.self, capacity: (bytes.count - restStart) / 2 + 1) { parts in
            var host = ByteRange(start: restStart, end: restStart)
            var (count, start, escaped) = (0, restStart, false)
            var (hostIsEscaped, hasQueryOrFragment, hasNUL) = (false, false, false)
            // One pass: split at '/' (skipping empty segments) and note '%', '?', '#' and NUL on the way.
            for index in restStart...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
                guard byte == UInt8(ascii: "/") else {
                    switch byte {
                    case UInt8(ascii: "%"): escaped = true
                    case UInt8(ascii: "?"), UInt8(ascii: "#"): hasQueryOrFragment = true
                    case 0: hasNUL = true
                    default: break
                    }
                    continue
                }
                if index > start {
                    let segment = ByteRange(start: start, end: index)
                    if host.isEmpty {
                        (host, hostIsEscaped) = (segment, escaped)
                    } else {
                        parts.initializeElement(at: count, to: Part(bytes, segment, isEscaped: escaped))
                        count += 1
                    }
                }
                (start, escaped) = (index + 1, false)
            }
            return try body(
                Parts(
                    bytes: bytes, scheme: ByteRange(start: 0, end: separator ?? 0), host: host,
                    segments: UnsafeBufferPointer(rebasing: parts[..<count]),
                    hostIsEscaped: hostIsEscaped, hasQueryOrFragment: hasQueryOrFragment, hasNUL: hasNUL))
        }
    }

    /// Calls `body` with the name of each capture in `bytes`, in order, until it returns false.
    ///
    /// What reading a match's parameters needs, without the rest of ``withParts(of:_:)``.
    static func forEachCaptureName(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (ByteRange) -> Bool) {
        // A host never starts like a capture, so it needs no telling apart from the segments.
        var start = (schemeEnd(bytes) ?? -3) + 3
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
            if end > start, startsCapture(bytes[start]), !body(Part(bytes, ByteRange(start: start, end: end), isEscaped: false).name) {
                return
            }
            start = end + 1
        }
    }

    /// Where the `://` after the scheme starts, or nil.
    static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension RoutePattern {
    /// The bytes in `range`, escapes decoded when `isEscaped`, handed to `body`; copies only an escaped range.
    static func withDecoded<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: ByteRange, isEscaped: Bool, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        let written = UnsafeBufferPointer(rebasing: bytes[range.start..<range.end])
        guard isEscaped, let decoded = PercentCoding.decode(written, plusIsSpace: false) else { return try body(written) }
        return try decoded.withUTF8Bytes(body)
    }
}

extension RoutePattern.Parts {
    /// The scheme or host in `range` as URLs are matched on it, handed to `body`: escapes decoded and
    /// ASCII letters lower-cased, as ``RouteURL`` does; copies only when there is something to change.
    func withLevelKey<R>(_ range: ByteRange, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try RoutePattern.withDecoded(bytes, range, isEscaped: range == host && hostIsEscaped) { key in
            guard key.contains(where: URLLayout.isASCIIUppercase) else { return try body(key) }
            return try key.map(URLLayout.asciiLowercased).withUnsafeBufferPointer(body)
        }
    }
}
