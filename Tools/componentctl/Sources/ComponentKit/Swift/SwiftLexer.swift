/// A token of Swift source: enough of the language to find imports and read manifests exactly.
public struct SwiftToken: Sendable, Hashable {
    /// What kind of token.
    public enum Kind: Sendable, Hashable {
        /// A word: an identifier or a keyword; `escaped` when written in backticks.
        case word(escaped: Bool)
        /// A string literal; `interpolated` when it contains `\( )`.
        case string(interpolated: Bool)
        /// A number literal.
        case number
        /// One punctuation character, such as `.`, `(`, `@`, `:`.
        case punctuation(UInt8)
        /// `#if`, `#elseif`, `#else`, `#endif` with the condition's byte range (empty for else/endif).
        case directive(Directive, condition: Range<Int>)
        /// Another `#word`, such as `#available` or `#file`.
        case poundWord
    }

    /// A conditional-compilation directive.
    public enum Directive: Sendable, Hashable {
        case `if`, elseif, `else`, endif
    }

    /// The kind.
    public var kind: Kind
    /// The token's bytes in the file.
    public var range: Range<Int>
    /// 1-based line of the first byte.
    public var line: Int
    /// Byte offset where that line starts.
    public var lineStart: Int
}

/// Splits Swift source into ``SwiftToken``s, skipping whitespace and comments.
///
/// Handles line comments, nested block comments, single-line, multi-line and raw strings
/// (`#"…"#`, any number of `#`) with nested interpolations, extended regex literals (`#/…/#`),
/// backticked identifiers and conditional-compilation directives. It works on bytes and never
/// allocates per token, so it reads tens of megabytes a second per core.
public struct SwiftLexer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0

    /// A lexer over `bytes`, which must outlive it.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        lineStart = index
    }

    /// The next token, or nil at the end of the text.
    public mutating func next() -> SwiftToken? {
        skipTrivia()
        guard index < bytes.count else { return nil }
        let start = index
        let startLine = line
        let startLineStart = lineStart
        let byte = bytes[index]
        let kind: SwiftToken.Kind
        switch byte {
        case UInt8(ascii: "`"):
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != newline { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "`") { index += 1 }
            kind = .word(escaped: true)
        case UInt8(ascii: "\""):
            kind = .string(interpolated: lexString(hashes: 0))
        case UInt8(ascii: "#"):
            kind = lexPound()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            while index < bytes.count,
                Self.isIdentifierByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") && index + 1 < bytes.count && Self.isDigit(bytes[index + 1])
            {
                index += 1
            }
            kind = .number
        default:
            if Self.isIdentifierStart(byte) {
                while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
                kind = .word(escaped: false)
            } else {
                index += 1
                kind = .punctuation(byte)
            }
        }
        return SwiftToken(kind: kind, range: start..<index, line: startLine, lineStart: startLineStart)
    }

    /// The bytes of `range` as text.
    public func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the word token `token` spells exactly `word`.
    public func token(_ token: SwiftToken, is word: StaticString) -> Bool {
        guard token.range.count == word.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var offset = 0
        for position in token.range {
            if bytes[position] != expected[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The 1-based column of `token`, counted in characters.
    public func column(of token: SwiftToken) -> Int {
        var column = 1
        for position in token.lineStart..<token.range.lowerBound where bytes[position] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// The value of a string literal without interpolation, with its escapes resolved.
    public func stringValue(_ token: SwiftToken) -> String? {
        guard case .string(interpolated: false) = token.kind else { return nil }
        var start = token.range.lowerBound
        var hashes = 0
        while bytes[start] == UInt8(ascii: "#") { hashes += 1; start += 1 }
        let quotes = start + 2 < token.range.upperBound && bytes[start + 1] == UInt8(ascii: "\"") && bytes[start + 2] == UInt8(ascii: "\"") ? 3 : 1
        let bodyStart = start + quotes
        let bodyEnd = token.range.upperBound - hashes - quotes
        guard bodyStart <= bodyEnd else { return nil }
        let raw = text(bodyStart..<bodyEnd)
        return hashes > 0 ? raw : Self.unescape(raw)
    }

    // MARK: - Trivia

    private var newline: UInt8 { UInt8(ascii: "\n") }

    private mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline {
                index += 1
                line += 1
                lineStart = index
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0B || byte == 0x0C {
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != newline { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                skipBlockComment()
            } else {
                return
            }
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                advanceCountingLines()
            }
        }
    }

    private mutating func advanceCountingLines() {
        if bytes[index] == newline {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    // MARK: - Strings

    /// Lexes a string whose opening `#`s are consumed and whose first quote is at `index`;
    /// returns whether it has an interpolation.
    private mutating func lexString(hashes: Int) -> Bool {
        let multiLine = index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") && bytes[index + 2] == UInt8(ascii: "\"")
        index += multiLine ? 3 : 1
        var interpolated = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") && hasHashes(hashes, at: index + 1) {
                index += 1 + hashes
                guard index < bytes.count else { return interpolated }
                if bytes[index] == UInt8(ascii: "(") {
                    interpolated = true
                    index += 1
                    skipInterpolation()
                } else {
                    advanceCountingLines()
                }
            } else if byte == UInt8(ascii: "\"") {
                if multiLine {
                    if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\""), hasHashes(hashes, at: index + 3)
                    {
                        index += 3 + hashes
                        return interpolated
                    }
                    index += 1
                } else if hasHashes(hashes, at: index + 1) {
                    index += 1 + hashes
                    return interpolated
                } else {
                    index += 1
                }
            } else if byte == newline && !multiLine {
                return interpolated // unterminated: stop at the line's end, as the compiler does
            } else {
                advanceCountingLines()
            }
        }
        return interpolated
    }

    private func hasHashes(_ count: Int, at position: Int) -> Bool {
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != UInt8(ascii: "#") { return false }
        return true
    }

    /// Skips an interpolation's expression up to its closing parenthesis, strings and comments included.
    private mutating func skipInterpolation() {
        var depth = 1
        while let token = next() {
            if case .punctuation(let byte) = token.kind {
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") { depth -= 1 }
                if depth == 0 { return }
            }
        }
    }

    private mutating func lexPound() -> SwiftToken.Kind {
        var hashes = 0
        while index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "#") { hashes += 1 }
        let after = index + hashes
        if after < bytes.count, bytes[after] == UInt8(ascii: "\"") {
            index = after
            return .string(interpolated: lexString(hashes: hashes))
        }
        if after < bytes.count, bytes[after] == UInt8(ascii: "/") {
            index = after + 1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                } else if bytes[index] == UInt8(ascii: "/") && hasHashes(hashes, at: index + 1) {
                    index += 1 + hashes
                    break
                } else {
                    advanceCountingLines()
                }
            }
            return .punctuation(UInt8(ascii: "/"))
        }
        index += 1
        let wordStart = index
        while index < bytes.count, Self.isIdentifierByte(bytes[index]) { index += 1 }
        let word = text(wordStart..<index)
        let directive: SwiftToken.Directive
        switch word {
        case "if": directive = .if
        case "elseif": directive = .elseif
        case "else": directive = .else
        case "endif": directive = .endif
        case "": return .punctuation(UInt8(ascii: "#"))
        default: return .poundWord
        }
        let conditionStart = index
        var conditionEnd = index
        while index < bytes.count, bytes[index] != newline {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
                break
            }
            index += 1
            if bytes[index - 1] != UInt8(ascii: " ") && bytes[index - 1] != UInt8(ascii: "\t") && bytes[index - 1] != UInt8(ascii: "\r") {
                conditionEnd = index
            }
        }
        var trimmedStart = conditionStart
        while trimmedStart < conditionEnd, bytes[trimmedStart] == UInt8(ascii: " ") || bytes[trimmedStart] == UInt8(ascii: "\t") { trimmedStart += 1 }
        return .directive(directive, condition: trimmedStart..<max(trimmedStart, conditionEnd))
    }

    // MARK: - Characters

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func unescape(_ raw: String) -> String {
        guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let escaped = iterator.next() else {
                result.append(character)
                continue
            }
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "u":
                var hex = ""
                while let next = iterator.next(), next != "}" { if next != "{" { hex.append(next) } }
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { result.unicodeScalars.append(scalar) }
            default: result.append(escaped)
            }
        }
        return result
    }
}
