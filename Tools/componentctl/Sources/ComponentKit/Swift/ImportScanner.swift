/// One `import` declaration found in a Swift file.
public struct ImportDeclaration: Sendable, Hashable, Codable {
    /// The imported module: the first component of the path (`Cart` in `import struct Cart.CartStore`).
    public var module: String
    /// The whole dotted path.
    public var path: String
    /// The kind in `import struct M.X`, if any.
    public var kind: String?
    /// Attributes such as `testable`, `_exported`, `_implementationOnly`, `preconcurrency`.
    public var attributes: [String]
    /// `public`, `package`, `internal`, `fileprivate` or `private`, if written.
    public var accessLevel: String?
    /// 1-based line of the module name.
    public var line: Int
    /// 1-based column of the module name.
    public var column: Int
    /// The `#if` branches the import sits in, outermost first, such as `canImport(UIKit)` or `!(os(Linux))`.
    public var conditions: [String]

    /// Whether a `#if canImport(M)` branch around the import makes it optional.
    public var isGuardedByCanImport: Bool {
        conditions.contains { $0.replacingOccurrences(of: " ", with: "").contains("canImport(\(module))") && !$0.hasPrefix("!") }
    }
}

/// A route pattern a source declares: a typed route's `static let pattern: RoutePattern = "..."` or
/// the first argument of `register("...", ...)` or `RouteRegistration("...", ...)`.
public struct RouteDeclaration: Sendable, Hashable, Codable {
    /// The pattern as written.
    public var pattern: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
}

/// Finds every import declaration of a Swift file with a real lexer: imports in comments or
/// strings are ignored; `#if` branches are recorded; attributes, access levels and kinds are read.
public enum ImportScanner {
    private static let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
    private static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The imports of the Swift source `bytes`.
    public static func imports(in bytes: [UInt8]) -> [ImportDeclaration] {
        bytes.withUnsafeBufferPointer { imports(in: $0) }
    }

    /// The imports of the Swift source in `buffer`.
    public static func imports(in buffer: UnsafeBufferPointer<UInt8>) -> [ImportDeclaration] {
        scan(buffer).imports
    }

    /// The imports and the route patterns of the Swift source in `buffer`, in one pass of the lexer.
    public static func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> (imports: [ImportDeclaration], routes: [RouteDeclaration]) {
        var stream = TokenStream(lexer: SwiftLexer(buffer))
        var result: [ImportDeclaration] = []
        var routes: [RouteDeclaration] = []
        // The last tokens before a string: `pattern : RoutePattern =` or `register (`.
        var recent: [SwiftToken] = []
        var conditions: [(text: String, branch: String)] = []
        var attributes: [String] = []
        var accessLevel: String?
        // After `.` the word is a member; after `(` or `,` an argument or parameter label.
        var previousRulesOutImport = false

        while let token = stream.next() {
            let rulesOut = token.isPunctuation(".") || token.isPunctuation("(") || token.isPunctuation(",")
            defer {
                previousRulesOutImport = rulesOut
                recent.append(token)
                if recent.count > 4 { recent.removeFirst() }
            }
            if case .string(interpolated: false) = token.kind, let route = routeDeclaration(token, after: recent, lexer: stream.lexer) {
                routes.append(route)
                continue
            }
            if case .directive(let directive, let range) = token.kind {
                let condition = stream.lexer.text(range)
                switch directive {
                case .if: conditions.append((condition, condition))
                case .elseif:
                    if let last = conditions.popLast() { conditions.append((last.text, condition)) }
                case .else:
                    if let last = conditions.popLast() { conditions.append((last.text, "!(\(last.text))")) }
                case .endif:
                    _ = conditions.popLast()
                }
                attributes = []
                accessLevel = nil
            } else if token.isPunctuation("@") {
                guard let name = stream.next() else { break }
                guard name.isWord else { stream.pushBack(name); continue }
                attributes.append(stream.lexer.text(name.range))
                stream.skipArguments() // as in @_spi(Internal)
            } else if token.isPlainWord, stream.lexer.token(token, is: "import"), !previousRulesOutImport {
                if let declaration = readImport(&stream, attributes: attributes, accessLevel: accessLevel, conditions: conditions.map(\.branch)) {
                    result.append(declaration)
                }
                attributes = []
                accessLevel = nil
            } else if token.isPlainWord, accessLevels.contains(stream.lexer.text(token.range)) {
                accessLevel = stream.lexer.text(token.range)
                stream.skipArguments() // private(set) and the like
            } else {
                attributes = []
                accessLevel = nil
            }
        }
        return (result, routes)
    }

    private static func routeDeclaration(_ string: SwiftToken, after recent: [SwiftToken], lexer: SwiftLexer) -> RouteDeclaration? {
        let declared =
            recent.count == 4 && recent[0].isPlainWord && lexer.token(recent[0], is: "pattern") && recent[1].isPunctuation(":")
            && recent[2].isWord && lexer.token(recent[2], is: "RoutePattern") && recent[3].isPunctuation("=")
        let callee = recent.count >= 2 ? recent[recent.count - 2] : nil
        let registered =
            recent.last?.isPunctuation("(") == true
            && callee.map {
                $0.isWord && (lexer.token($0, is: "register") || lexer.token($0, is: "RouteRegistration"))
            } == true
        guard declared || registered, let value = lexer.stringValue(string), value.contains("://") else { return nil }
        return RouteDeclaration(pattern: value, line: string.line, column: lexer.column(of: string))
    }

    private static func readImport(
        _ stream: inout TokenStream, attributes: [String], accessLevel: String?, conditions: [String]
    ) -> ImportDeclaration? {
        guard var name = stream.next() else { return nil }
        var kind: String?
        if name.isPlainWord, importKinds.contains(stream.lexer.text(name.range)) {
            kind = stream.lexer.text(name.range)
            guard let after = stream.next() else { return nil }
            name = after
        }
        guard name.isWord else {
            stream.pushBack(name) // `import:` as an argument label, or not an import at all
            return nil
        }
        var path = [stream.lexer.text(name.range).trimmingCharacters(in: ["`"])]
        while let dot = stream.next() {
            guard dot.isPunctuation(".") else { stream.pushBack(dot); break }
            guard let part = stream.next() else { break }
            guard part.isWord else { stream.pushBack(part); break }
            path.append(stream.lexer.text(part.range).trimmingCharacters(in: ["`"]))
        }
        return ImportDeclaration(
            module: path[0], path: path.joined(separator: "."), kind: kind, attributes: attributes, accessLevel: accessLevel,
            line: name.line, column: stream.lexer.column(of: name), conditions: conditions)
    }
}

/// A lexer with one token of push-back.
struct TokenStream {
    var lexer: SwiftLexer
    private var pushedBack: SwiftToken?

    init(lexer: SwiftLexer) {
        self.lexer = lexer
    }

    mutating func next() -> SwiftToken? {
        if let token = pushedBack {
            pushedBack = nil
            return token
        }
        return lexer.next()
    }

    mutating func pushBack(_ token: SwiftToken) {
        pushedBack = token
    }

    /// Skips a parenthesized argument list if one comes next.
    mutating func skipArguments() {
        guard let open = next() else { return }
        guard open.isPunctuation("(") else {
            pushBack(open)
            return
        }
        var depth = 1
        while let token = next() {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            if depth == 0 { return }
        }
    }
}

extension SwiftToken {
    /// Whether the token is the punctuation character `character`.
    public func isPunctuation(_ character: Unicode.Scalar) -> Bool {
        if case .punctuation(let byte) = kind { return byte == UInt8(ascii: character) }
        return false
    }

    /// Whether the token is a word, backticked or not.
    public var isWord: Bool {
        if case .word = kind { return true }
        return false
    }

    /// Whether the token is a word written without backticks (so it may be a keyword).
    public var isPlainWord: Bool {
        if case .word(escaped: false) = kind { return true }
        return false
    }
}
