/// Something an interface package ("public header") declares that is behaviour, not a declaration.
public struct BehaviourDeclaration: Sendable, Hashable {
    /// What it is, said for a person: "class CartCache", "method total()".
    public var what: String
    /// Why it is behaviour, and what to write instead.
    public var fix: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
}

/// Finds behaviour in an interface package's source, on the lexer: what an interface may hold is
/// protocols (their requirements), value types that carry data (structs and enums with stored
/// properties and cases), typed routes, events, extension points, constants (`let`, `static let`),
/// type aliases, trivial initialisers (each statement assigns a parameter, a literal or `nil` to a
/// property) and computed properties of one expression. Anything else is behaviour: a class or an actor,
/// a function or method with a body, an initialiser that computes, a computed property that branches,
/// declares or assigns, a setter or property observer, a `subscript`, `deinit`, `lazy` or mutable
/// global or static state (`var` at file scope, `static var`).
public enum InterfaceScanner {
    private static let modifiers: Set<String> = [
        "public", "internal", "private", "fileprivate", "package", "open", "final", "override", "mutating", "nonmutating", "indirect",
        "convenience", "required", "nonisolated", "dynamic", "weak", "unowned", "consuming", "borrowing",
    ]
    private static let statementWords: Set<String> = [
        "if", "guard", "for", "while", "switch", "do", "repeat", "let", "var", "throw", "defer", "set", "didSet", "willSet", "_modify", "_read",
    ]

    /// The behaviour declared in `bytes`.
    public static func scan(_ bytes: [UInt8]) -> [BehaviourDeclaration] {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = SwiftLexer(buffer)
            var tokens: [SwiftToken] = []
            while let token = lexer.next() {
                if case .directive = token.kind { continue }
                tokens.append(token)
            }
            var scanner = Scanner(tokens: tokens, lexer: lexer)
            scanner.scanBody(until: tokens.count, scope: .file)
            return scanner.found
        }
    }

    private enum Scope { case file, type }

    private struct Scanner {
        let tokens: [SwiftToken]
        let lexer: SwiftLexer
        var position = 0
        var found: [BehaviourDeclaration] = []

        init(tokens: [SwiftToken], lexer: SwiftLexer) {
            self.tokens = tokens
            self.lexer = lexer
        }

        func word(_ index: Int) -> String? {
            guard index < tokens.count, case .word = tokens[index].kind else { return nil }
            return lexer.text(tokens[index].range)
        }

        func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            guard index < tokens.count, case .punctuation(let byte) = tokens[index].kind else { return false }
            return byte == UInt8(ascii: character)
        }

        /// The index just past the bracketed group opening at `index`.
        func pastGroup(_ index: Int) -> Int {
            var depth = 0
            var at = index
            while at < tokens.count {
                if isPunctuation(at, "(") || isPunctuation(at, "[") || isPunctuation(at, "{") { depth += 1 }
                if isPunctuation(at, ")") || isPunctuation(at, "]") || isPunctuation(at, "}") { depth -= 1 }
                at += 1
                if depth == 0 { return at }
            }
            return at
        }

        /// The index of the next `{` at this level before `limit`, skipping parenthesised and bracketed
        /// groups; stops (nil) at a `}` that closes the level or at the start of the next declaration line.
        func nextBrace(from index: Int, limit: Int, sameDeclaration line: Int? = nil) -> Int? {
            var at = index
            while at < limit {
                if isPunctuation(at, "{") { return at }
                if isPunctuation(at, "}") { return nil }
                if isPunctuation(at, "(") || isPunctuation(at, "[") { at = pastGroup(at); continue }
                if let line, tokens[at].line > line, let next = word(at), Self.declarationWords.contains(next) { return nil }
                at += 1
            }
            return nil
        }

        static let declarationWords: Set<String> = [
            "func", "var", "let", "init", "case", "struct", "enum", "class", "actor", "protocol", "extension", "typealias", "subscript", "deinit",
            "static", "public", "private", "internal", "fileprivate", "import", "@",
        ]

        mutating func report(_ index: Int, _ what: String, _ fix: String) {
            found.append(BehaviourDeclaration(what: what, fix: fix, line: tokens[index].line, column: lexer.column(of: tokens[index])))
        }

        /// Scans declarations from `position` up to `limit` (the closing brace of the body, or the end).
        mutating func scanBody(until limit: Int, scope: Scope) {
            var isStatic = false
            var isLazy = false
            while position < limit {
                let index = position
                if isPunctuation(index, "@") { // an attribute, with its arguments
                    position += 2
                    if isPunctuation(position, "(") { position = pastGroup(position) }
                    continue
                }
                guard let keyword = word(index) else {
                    position += 1
                    continue
                }
                if keyword == "static" || keyword == "lazy" || InterfaceScanner.modifiers.contains(keyword)
                    || (keyword == "class" && word(index + 1).map { Self.memberWords.contains($0) || InterfaceScanner.modifiers.contains($0) } == true)
                {
                    if keyword == "static" || keyword == "class" { isStatic = true }
                    if keyword == "lazy" { isLazy = true }
                    position += 1
                    continue
                }
                let (wasStatic, wasLazy) = (isStatic, isLazy)
                (isStatic, isLazy) = (false, false)
                switch keyword {
                case "import", "typealias", "associatedtype", "case":
                    position = endOfLine(from: index + 1, limit: limit)
                case "protocol":
                    // A protocol holds requirements only: the language allows no bodies in it.
                    guard let open = nextBrace(from: index + 1, limit: limit) else { position = index + 1; continue }
                    position = pastGroup(open)
                case "struct", "enum", "extension":
                    guard let open = nextBrace(from: index + 1, limit: limit) else { position = index + 1; continue }
                    let close = pastGroup(open) - 1
                    position = open + 1
                    scanBody(until: close, scope: .type)
                    position = close + 1
                case "class", "actor":
                    let name = word(index + 1) ?? keyword
                    report(
                        index, "\(keyword) \(name)",
                        "an interface holds no reference types with their state and methods: make it a struct that carries data, or a protocol the implementation conforms to"
                    )
                    position = nextBrace(from: index + 1, limit: limit).map(pastGroup) ?? index + 1
                case "func", "subscript", "deinit":
                    let name = keyword == "func" ? (word(index + 1).map { "method \($0)()" } ?? "a function") : keyword
                    guard let open = nextBrace(from: index + 1, limit: limit, sameDeclaration: tokens[index].line) else {
                        position = index + 1
                        continue
                    }
                    report(
                        index, scope == .file && keyword == "func" ? "function \(word(index + 1) ?? "")()" : name,
                        "an interface declares, the implementation behaves: make it a protocol requirement the implementation fulfils, or move it into the implementation"
                    )
                    position = pastGroup(open)
                case "init":
                    guard let open = nextBrace(from: index + 1, limit: limit) else { position = index + 1; continue }
                    let close = pastGroup(open) - 1
                    if !isTrivialInitializer(open + 1, close) {
                        report(
                            index, "an initialiser that computes",
                            "an interface's initialiser only stores its parameters (self.x = x): move the computing into the implementation")
                    }
                    position = close + 1
                case "var", "let":
                    scanProperty(at: index, keyword: keyword, scope: scope, isStatic: wasStatic, isLazy: wasLazy, limit: limit)
                default:
                    position += 1
                }
            }
        }

        static let memberWords: Set<String> = ["var", "let", "func", "subscript"]

        mutating func scanProperty(at index: Int, keyword: String, scope: Scope, isStatic: Bool, isLazy: Bool, limit: Int) {
            let name = word(index + 1) ?? "property"
            if keyword == "var", scope == .file {
                report(
                    index, "global variable \(name)",
                    "an interface holds no shared mutable state: make it a `let` constant, or move the state into the implementation")
            } else if keyword == "var", isStatic {
                report(
                    index, "static variable \(name)",
                    "an interface holds no shared mutable state: make it a `static let` constant, or move the state into the implementation")
            } else if isLazy {
                report(index, "lazy property \(name)", "an interface stores data; what a lazy property computes belongs in the implementation")
            }
            // Up to the end of the declaration: a body (computed or observed), an initial value, or the line's end.
            var at = index + 1
            while at < limit {
                if isPunctuation(at, "(") || isPunctuation(at, "[") { at = pastGroup(at); continue }
                if isPunctuation(at, "=") || isPunctuation(at, "}") { break }
                if isPunctuation(at, "{") {
                    let close = pastGroup(at) - 1
                    if !isTrivialComputedBody(at + 1, close) {
                        report(
                            index, "computed property \(name)",
                            "an interface's computed property is one expression of its stored data; setters, observers and branching belong in the implementation"
                        )
                    }
                    position = close + 1
                    return
                }
                if at > index + 1, tokens[at].line > tokens[index].line { break }
                at += 1
            }
            position = endOfLine(from: at, limit: limit)
        }

        /// The index of the first token after the line that holds `index`'s token's line, groups included.
        func endOfLine(from index: Int, limit: Int) -> Int {
            guard index < limit else { return limit }
            var line = tokens[max(0, index - 1)].line
            var at = index
            while at < limit, tokens[at].line == line || isPunctuation(at, ".") || isPunctuation(at, ",") {
                if isPunctuation(at, "}") { return at }
                if isPunctuation(at, "(") || isPunctuation(at, "[") || isPunctuation(at, "{") {
                    at = pastGroup(at)
                    line = tokens[at - 1].line
                    continue
                }
                at += 1
            }
            return at
        }

        /// Each statement (a line) assigns one token (a parameter, a literal, `nil`, `[]`) to a stored property.
        func isTrivialInitializer(_ start: Int, _ end: Int) -> Bool {
            var at = start
            while at < end {
                let line = tokens[at].line
                var statement: [Int] = []
                while at < end, tokens[at].line == line {
                    statement.append(at)
                    at += 1
                }
                var target = statement.startIndex
                if word(statement[target]) == "self", statement.count > 2, isPunctuation(statement[target + 1], ".") { target += 2 }
                guard target + 2 < statement.count + 1, word(statement[target]) != nil, target + 1 < statement.count,
                    isPunctuation(statement[target + 1], "=")
                else { return false }
                let value = Array(statement[(target + 2)...])
                let isLiteralGroup = value.count == 2 && isPunctuation(value[0], "[") && isPunctuation(value[1], "]")
                guard value.count == 1 || isLiteralGroup else { return false }
                if value.count == 1, case .punctuation = tokens[value[0]].kind { return false }
            }
            return true
        }

        /// One expression of the stored data: no statements, declarations, setters, observers or assignments.
        func isTrivialComputedBody(_ start: Int, _ end: Int) -> Bool {
            for at in start..<end {
                if let word = word(at), InterfaceScanner.statementWords.contains(word) { return false }
                if isPunctuation(at, "=") {
                    let before = at > start && ["=", "!", "<", ">"].contains { isPunctuation(at - 1, $0) }
                    let after = isPunctuation(at + 1, "=")
                    if !before && !after { return false }
                }
                if isPunctuation(at, "{") { return false } // a closure or a `get { }`: more than one expression
            }
            return true
        }
    }
}
