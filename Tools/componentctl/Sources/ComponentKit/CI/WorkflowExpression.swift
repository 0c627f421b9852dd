import Foundation

/// A value of a GitHub Actions expression (`${{ ... }}`).
indirect enum WorkflowValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([WorkflowValue])
    case object([String: WorkflowValue])

    /// The value of parsed JSON (`fromJSON`).
    init(json: Any) {
        if Swift.type(of: json) == Bool.self, let value = json as? Bool {
            self = .bool(value)
            return
        }
        switch json {
        case let value as String: self = .string(value)
        // JSON's true and false come as NSNumbers of a char ("c") on Linux.
        case let value as NSNumber where String(cString: value.objCType) == "c": self = .bool(value.boolValue)
        case let value as NSNumber: self = .number(value.doubleValue)
        case let value as [Any]: self = .array(value.map(WorkflowValue.init(json:)))
        case let value as [String: Any]: self = .object(value.mapValues(WorkflowValue.init(json:)))
        default: self = .null
        }
    }

    /// GitHub's truthiness: null, false, 0, "" are false.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0
        case .string(let value): !value.isEmpty
        case .array, .object: true
        }
    }

    /// The text a `${{ }}` in a string becomes.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): value
        case .array, .object:
            (try? JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys, .withoutEscapingSlashes])).map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        }
    }

    var jsonObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.jsonObject)
        case .object(let values): values.mapValues(\.jsonObject)
        }
    }

    subscript(_ key: String) -> WorkflowValue {
        if case .object(let values) = self { return values[key] ?? .null }
        return .null
    }
}

/// A workflow expression the local runner cannot evaluate, with the expression.
struct WorkflowExpressionError: ComponentctlError {
    var description: String
    var exitStatus: ExitStatus { .usage }
}

/// Evaluates the part of GitHub's expression language generated workflows use: literals, contexts with
/// `.name` and `[index]`, `!`, `==`, `!=`, `&&`, `||` (which yields an operand, as GitHub's does), and the
/// functions `fromJSON`, `toJSON`, `success`, `failure`, `cancelled`, `always`. Anything else is an error:
/// the runner never guesses.
struct WorkflowExpression {
    /// The contexts by name (`github`, `matrix`, `needs`, `steps`, `env`, `runner`).
    var contexts: [String: WorkflowValue]
    /// Whether a job this one needs failed (for `failure()` and `success()`).
    var needsFailed = false

    /// `text` with each `${{ expression }}` replaced by its value's text.
    func substitute(_ text: String) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            result += rest[..<open.lowerBound]
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else {
                throw WorkflowExpressionError(description: "'\(text)' opens '${{' and never closes it")
            }
            result += try evaluate(String(rest[open.upperBound..<close.lowerBound])).text
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// The value of a job's or step's `if:` (written with or without `${{ }}`).
    func condition(_ text: String) throws -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("${{"), trimmed.hasSuffix("}}"), trimmed.components(separatedBy: "${{").count == 2 {
            return try evaluate(String(trimmed.dropFirst(3).dropLast(2))).isTruthy
        }
        return try evaluate(trimmed).isTruthy
    }

    /// The value of `expression`.
    func evaluate(_ expression: String) throws -> WorkflowValue {
        var parser = Parser(tokens: try Self.tokens(expression), expression: expression, evaluator: self)
        let value = try parser.or()
        guard parser.atEnd else { throw WorkflowExpressionError(description: "cannot read '\(expression)' past '\(parser.current)'") }
        return value
    }

    private static func tokens(_ text: String) throws -> [String] {
        var tokens: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character == "'" {
                var end = text.index(after: index)
                var value = ""
                while true {
                    guard end < text.endIndex else { throw WorkflowExpressionError(description: "'\(text)' has an unclosed string") }
                    if text[end] == "'" {
                        let next = text.index(after: end)
                        if next < text.endIndex, text[next] == "'" {
                            value.append("'")
                            end = text.index(after: next)
                            continue
                        }
                        break
                    }
                    value.append(text[end])
                    end = text.index(after: end)
                }
                tokens.append("'" + value)
                index = text.index(after: end)
            } else if ["==", "!=", "&&", "||"].contains(String(text[index...].prefix(2))) {
                tokens.append(String(text[index...].prefix(2)))
                index = text.index(index, offsetBy: 2)
            } else if "!.()[],".contains(character) {
                tokens.append(String(character))
                index = text.index(after: index)
            } else {
                var end = index
                while end < text.endIndex, text[end].isLetter || text[end].isNumber || "_-".contains(text[end]) { end = text.index(after: end) }
                guard end > index else { throw WorkflowExpressionError(description: "'\(text)' has '\(character)', which the local runner does not know") }
                tokens.append(String(text[index..<end]))
                index = end
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        let expression: String
        let evaluator: WorkflowExpression
        var position = 0

        var atEnd: Bool { position >= tokens.count }
        var current: String { atEnd ? "the end" : tokens[position] }

        mutating func take(_ token: String) -> Bool {
            guard !atEnd, tokens[position] == token else { return false }
            position += 1
            return true
        }

        mutating func expect(_ token: String) throws {
            guard take(token) else { throw WorkflowExpressionError(description: "expected '\(token)' in '\(expression)', found \(current)") }
        }

        mutating func or() throws -> WorkflowValue {
            var value = try and()
            while take("||") {
                let right = try and()
                if !value.isTruthy { value = right }
            }
            return value
        }

        mutating func and() throws -> WorkflowValue {
            var value = try equality()
            while take("&&") {
                let right = try equality()
                if value.isTruthy { value = right }
            }
            return value
        }

        mutating func equality() throws -> WorkflowValue {
            var value = try unary()
            while true {
                if take("==") {
                    value = .bool(value == (try unary()))
                } else if take("!=") {
                    value = .bool(value != (try unary()))
                } else {
                    return value
                }
            }
        }

        mutating func unary() throws -> WorkflowValue {
            if take("!") { return .bool(!(try unary()).isTruthy) }
            return try postfix()
        }

        mutating func postfix() throws -> WorkflowValue {
            var value = try primary()
            while true {
                if take(".") {
                    guard !atEnd else { throw WorkflowExpressionError(description: "'\(expression)' ends after '.'") }
                    value = value[tokens[position]]
                    position += 1
                } else if take("[") {
                    let index = try or()
                    try expect("]")
                    switch (value, index) {
                    case (.array(let values), .number(let number)): value = Int(number) < values.count && number >= 0 ? values[Int(number)] : .null
                    case (_, .string(let key)): value = value[key]
                    default: value = .null
                    }
                } else {
                    return value
                }
            }
        }

        mutating func primary() throws -> WorkflowValue {
            guard !atEnd else { throw WorkflowExpressionError(description: "'\(expression)' ends too early") }
            let token = tokens[position]
            position += 1
            if token == "(" {
                let value = try or()
                try expect(")")
                return value
            }
            if token.hasPrefix("'") { return .string(String(token.dropFirst())) }
            if let number = Double(token) { return .number(number) }
            switch token {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: break
            }
            if take("(") {
                var arguments: [WorkflowValue] = []
                if !take(")") {
                    repeat { arguments.append(try or()) } while take(",")
                    try expect(")")
                }
                return try call(token, arguments)
            }
            guard let context = evaluator.contexts[token] else {
                throw WorkflowExpressionError(description: "'\(expression)' uses the context '\(token)', which the local runner does not provide")
            }
            return context
        }

        func call(_ name: String, _ arguments: [WorkflowValue]) throws -> WorkflowValue {
            switch (name, arguments.count) {
            case ("fromJSON", 1):
                guard let data = arguments[0].text.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                else { throw WorkflowExpressionError(description: "fromJSON got '\(arguments[0].text)', which is not JSON") }
                return WorkflowValue(json: json)
            case ("toJSON", 1): return .string(arguments[0].text)
            case ("success", 0): return .bool(!evaluator.needsFailed)
            case ("failure", 0): return .bool(evaluator.needsFailed)
            case ("cancelled", 0): return .bool(false)
            case ("always", 0): return .bool(true)
            default:
                throw WorkflowExpressionError(
                    description:
                        "'\(expression)' calls \(name) with \(arguments.count) argument\(arguments.count == 1 ? "" : "s"), which the local runner does not know"
                )
            }
        }
    }
}
