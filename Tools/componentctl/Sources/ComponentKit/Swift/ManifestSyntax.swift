/// The structural checks a manifest must pass before it is read: the lenient reader would otherwise take
/// a truncated or broken Package.swift for a smaller valid one, and check-layers would judge a package
/// that SwiftPM cannot even load.
enum ManifestSyntax {
    /// Throws at the first unterminated string, unbalanced bracket, or two values with no separator between them.
    static func check(_ tokens: [ManifestReader.Token], rawTexts: [String]) throws {
        var open: [(byte: UInt8, token: ManifestReader.Token)] = []
        var previous: ManifestReader.Token?
        for (token, raw) in zip(tokens, rawTexts) {
            if case .string = token.kind, let last = raw.utf8.last, last != UInt8(ascii: "\"") && last != UInt8(ascii: "#") || raw.utf8.count < 2 {
                throw ManifestError(message: "a string is not closed", location: token.location)
            }
            if case .punctuation(let byte) = token.kind, let closing = closer(of: byte) {
                open.append((closing, token))
            } else if case .punctuation(let byte) = token.kind, [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte) {
                guard let top = open.popLast(), top.byte == byte else {
                    throw ManifestError(message: "'\(Character(Unicode.Scalar(byte)))' closes nothing that is open", location: token.location)
                }
            } else if let previous, let enclosing = open.last?.byte, enclosing != UInt8(ascii: "}"), endsValue(previous), startsValue(token) {
                throw ManifestError(message: "a ',' is missing before '\(token.text)'", location: token.location)
            }
            previous = token
        }
        if let unclosed = open.last {
            throw ManifestError(message: "'\(unclosed.token.text)' is never closed (is the file cut short?)", location: unclosed.token.location)
        }
    }

    private static func closer(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "("): UInt8(ascii: ")")
        case UInt8(ascii: "["): UInt8(ascii: "]")
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        default: nil
        }
    }

    private static let infixWords: Set<String> = ["as", "is", "in", "try", "await"]

    private static func endsValue(_ token: ManifestReader.Token) -> Bool {
        switch token.kind {
        case .string, .number: true
        case .word: !infixWords.contains(token.text)
        case .punctuation(let byte): byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]")
        default: false
        }
    }

    private static func startsValue(_ token: ManifestReader.Token) -> Bool {
        switch token.kind {
        case .string, .number: true
        case .word: !infixWords.contains(token.text)
        default: false
        }
    }
}
