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
