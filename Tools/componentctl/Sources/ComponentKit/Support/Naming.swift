import Foundation

/// Turns a folder name into a component name: `UserInterface` -> `user-interface`, `HTTPClient` -> `http-client`.
public func kebabCase(_ name: String) -> String {
    let characters = Array(name)
    var result = ""
    for (index, character) in characters.enumerated() {
        if character.isUppercase, index > 0 {
            let previous = characters[index - 1]
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                result.append("-")
            }
        }
        result.append(character == "_" || character == " " ? "-" : Character(character.lowercased()))
    }
    return result
}

/// Turns a kebab-case name into a type-like one: `my-app` -> `MyApp`.
public func upperCamelCase(_ name: String) -> String {
    name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// `text` as a Swift string literal.
func swiftString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": result += "\\\\"
        case "\"": result += "\\\""
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 { result += "\\u{\(String(scalar.value, radix: 16))}" } else { result.unicodeScalars.append(scalar) }
        }
    }
    return result + "\""
}

/// The ASCII character classes of the names components.yaml checks, tested without a regular expression: ICU's
/// engine costs every command that loads a workspace a few milliseconds to start.
enum NameCharacters {
    static func isLower(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Whether `text` is one byte `first` allows, then bytes `rest` allows, at most `maxLength` bytes in all.
    static func matches(_ text: String, first: (UInt8) -> Bool, rest: (UInt8) -> Bool, maxLength: Int = .max) -> Bool {
        let bytes = Array(text.utf8)
        guard let head = bytes.first, bytes.count <= maxLength, first(head) else { return false }
        return bytes.dropFirst().allSatisfy(rest)
    }

    /// A folder name: lowercase letters and digits, then also '.', '_' and '-' (`[a-z0-9][a-z0-9._-]*`).
    static func isFolderName(_ text: String, maxLength: Int = .max) -> Bool {
        matches(
            text, first: { isLower($0) || isDigit($0) },
            rest: { isLower($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }, maxLength: maxLength)
    }

    /// An environment variable prefix: a capital letter, then capitals, digits and '_', not ending in '_'.
    static func isVariablePrefix(_ text: String) -> Bool {
        matches(text, first: isUpper, rest: { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }) && !text.hasSuffix("_")
    }

    /// Lower kebab case: a lowercase letter, then lowercase letters and digits in words joined by single dashes.
    static func isKebabCase(_ text: String) -> Bool {
        matches(text, first: isLower, rest: { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") })
            && text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
    }

    /// A Swift identifier of ASCII letters, digits and '_', not starting with a digit.
    static func isIdentifier(_ text: String) -> Bool {
        let letter = { (byte: UInt8) in isLower(byte) || isUpper(byte) || byte == UInt8(ascii: "_") }
        return matches(text, first: letter, rest: { letter($0) || isDigit($0) })
    }
}
