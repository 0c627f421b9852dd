#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A half-open range of byte offsets into a URL's (or a decoded path's) UTF-8.
struct ByteRange: Sendable, Hashable {
    var start: Int
    var end: Int

    var isEmpty: Bool { start == end }

    func contains(uppercaseIn bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[start..<end].contains(where: URLLayout.isASCIIUppercase)
    }
}

/// Where a URL's parts are, found in one pass over its UTF-8 bytes.
///
/// Both ``RouteURL`` (which decodes the parts into strings) and the router's lookup (which
/// matches on the bytes where they are) start from this scan, so they split every URL alike.
/// The delimiters are ASCII, so a scan over bytes never splits a multi-byte character.
struct URLLayout {
    /// Why a URL could not be laid out.
    enum Problem: Error {
        case tooLong
        case containsNUL
        case noScheme
        case invalidScheme(ByteRange)
    }

    let scheme: ByteRange
    let host: ByteRange
    /// From the `/` after the host to the query or fragment; may be empty.
    let path: ByteRange
    /// After the `?`, up to the fragment; nil without a `?`.
    let query: ByteRange?
    /// After the `#`; nil without a `#`.
    let fragment: ByteRange?
    /// Whether a `%` appears anywhere: only then must parts be decoded before matching.
    let hasPercent: Bool
    /// Whether the scheme and host are already as ``RouteURL`` stores them, with no ASCII capitals.
    let hasLowercaseSchemeAndHost: Bool

    /// The bytes below 64 the scan stops at, as a bit set: NUL, `#`, `%`, `:` and `?`.
    /// (A computed constant: a stored `static let` would be checked for initialization on every byte.)
    @inline(__always)
    private static var delimiters: UInt64 {
        1 | 1 << UInt64(UInt8(ascii: "#")) | 1 << UInt64(UInt8(ascii: "%")) | 1 << UInt64(UInt8(ascii: ":")) | 1 << UInt64(UInt8(ascii: "?"))
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: RouterLimits) throws(Problem) {
        guard bytes.count <= limits.maxURLLength else { throw .tooLong }
        var separator: Int?
        var questionMark: Int?
        var hash: Int?
        var hasPercent = false
        for index in bytes.indices {
            let byte = bytes[index]
            // One test skips the bytes that mean nothing here: letters, digits, '/', most punctuation.
            guard byte < 64, Self.delimiters & (1 << UInt64(byte)) != 0 else { continue }
            switch byte {
            case 0: throw .containsNUL
            case UInt8(ascii: "%"): hasPercent = true
            case UInt8(ascii: "?") where questionMark == nil: questionMark = index
            case UInt8(ascii: "#") where hash == nil: hash = index
            case UInt8(ascii: ":")
            where separator == nil && index + 2 < bytes.count
                && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/"):
                separator = index
            default: break
            }
        }
        guard let separator else { throw .noScheme }
        let scheme = ByteRange(start: 0, end: separator)
        guard Self.isValidScheme(bytes, scheme) else { throw .invalidScheme(scheme) }
        let afterScheme = separator + 3
        // A '?' or '#' inside the scheme made it invalid above, so both come after it if present.
        let fragmentStart = hash.map { $0 + 1 }
        let restEnd = hash ?? bytes.count
        let queryMark = questionMark.flatMap { $0 < restEnd ? $0 : nil }
        let pathEnd = queryMark ?? restEnd
        var hostEnd = afterScheme
        var isLowercase = !scheme.contains(uppercaseIn: bytes)
        while hostEnd < pathEnd && bytes[hostEnd] != UInt8(ascii: "/") {
            if Self.isASCIIUppercase(bytes[hostEnd]) { isLowercase = false }
            hostEnd += 1
        }
        self.scheme = scheme
        self.host = ByteRange(start: afterScheme, end: hostEnd)
        self.path = ByteRange(start: hostEnd, end: pathEnd)
        self.query = queryMark.map { ByteRange(start: $0 + 1, end: restEnd) }
        self.fragment = fragmentStart.map { ByteRange(start: $0, end: bytes.count) }
        self.hasPercent = hasPercent
        self.hasLowercaseSchemeAndHost = isLowercase
    }

    /// Calls `body` with each non-empty `/`-separated segment of `range`, in order; stops when it returns false.
    static func forEachSegment(_ bytes: UnsafeBufferPointer<UInt8>, in range: ByteRange, _ body: (ByteRange) -> Bool) {
        forEachPiece(bytes, in: range, separator: UInt8(ascii: "/"), body)
    }

    /// Calls `body` with each non-empty piece of `range` between `separator`s, in order; stops when it returns false.
    static func forEachPiece(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: ByteRange, separator: UInt8, _ body: (ByteRange) -> Bool
    ) {
        var start = range.start
        for index in range.start...range.end where index == range.end || bytes[index] == separator {
            if index > start, !body(ByteRange(start: start, end: index)) { return }
            start = index + 1
        }
    }

    /// A letter, then letters, digits, `+`, `-` or `.` (RFC 3986).
    static func isValidScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ range: ByteRange) -> Bool {
        guard range.start < range.end, isASCIILetter(bytes[range.start]) else { return false }
        for index in range.start + 1..<range.end {
            let byte = bytes[index]
            guard
                isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return false }
        }
        return true
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func isASCIIUppercase(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "A") < 26
    }

    /// ASCII letters lower-cased; every other byte as it is.
    @inline(__always)
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        isASCIIUppercase(byte) ? byte | 0x20 : byte
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes in `range` as a string (they are UTF-8 split at ASCII delimiters).
    func string(_ range: ByteRange) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range.start..<range.end]), as: UTF8.self)
    }

    /// Whether the bytes in `a` and `b` are the same.
    func equal(_ a: ByteRange, _ b: ByteRange) -> Bool {
        equal(a, to: UnsafeBufferPointer(rebasing: self[b.start..<b.end]))
    }

    /// Whether the bytes in `range` are `other`'s.
    func equal(_ range: ByteRange, to other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.end - range.start == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return other.isEmpty }
        return memcmp(base + range.start, otherBase, other.count) == 0
    }

    /// The bytes in `range` as a string with ASCII letters lower-cased: how schemes and hosts are stored.
    func lowercasedString(_ range: ByteRange) -> String {
        guard range.contains(uppercaseIn: self) else { return string(range) }
        return String(decoding: self[range.start..<range.end].map(URLLayout.asciiLowercased), as: UTF8.self)
    }
}

extension String {
    /// Runs `body` over the string's UTF-8, copying it only when it is not stored contiguously.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        copy.makeContiguousUTF8()
        return try copy.withUTF8Bytes(body)
    }
}
