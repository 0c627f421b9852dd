/// An extension point a source declares: a type conforming to `ExtensionPoint` with its
/// `static let id: ExtensionPointID = "..."`.
public struct ExtensionPointDeclaration: Sendable, Hashable, Codable {
    /// The point's id as written, or nil when it is no plain string literal (componentctl cannot read it).
    public var id: String?
    /// The type's name (what the App's generated wiring names).
    public var typeName: String
    /// 1-based line of the id.
    public var line: Int
    /// 1-based column of the id.
    public var column: Int
}

/// A plugin definition a source declares: a type conforming to `PluginDefinition`, its
/// `static let id = "..."` and its `static let settings: PluginSchema = [...]`.
public struct PluginDefinitionDeclaration: Sendable, Hashable, Codable {
    /// The type's name.
    public var typeName: String
    /// The id, when written as a literal.
    public var id: String?
    /// The settings and their types (`int`, `number`, `string`, `bool`); nil when the schema is no
    /// dictionary literal (componentctl cannot read it).
    public var settings: [String: String]?
    /// 1-based line of the type's name.
    public var line: Int
    /// 1-based column of the type's name.
    public var column: Int
}

/// A module a source declares: a public type conforming to `AppModule`, which the App's generated
/// wiring creates with `init()` (an internal one is the component's own business).
public struct AppModuleDeclaration: Sendable, Hashable, Codable {
    /// The type's name.
    public var typeName: String
    /// 1-based line of the type's name.
    public var line: Int
    /// 1-based column of the type's name.
    public var column: Int
}

/// What the lexer reads of one Swift source for the App's wiring.
public struct WiringFacts: Sendable {
    /// The extension points it declares.
    public var points: [ExtensionPointDeclaration] = []
    /// The plugin definitions it declares.
    public var definitions: [PluginDefinitionDeclaration] = []
    /// The modules it declares.
    public var modules: [AppModuleDeclaration] = []
}

/// Reads the wiring facts of a Swift source with the lexer: extension points, plugin definitions and
/// modules. It reads what the declarations say as literals; a conformance added in an extension elsewhere
/// is not seen.
public enum PluginScanner {
    /// The extension points, plugin definitions and modules of the Swift source `bytes`.
    public static func scan(_ bytes: [UInt8]) -> WiringFacts {
        bytes.withUnsafeBufferPointer { buffer in
            var stream = TokenStream(lexer: SwiftLexer(buffer))
            var points: [ExtensionPointDeclaration] = []
            var definitions: [PluginDefinitionDeclaration] = []
            var modules: [AppModuleDeclaration] = []
            // The innermost type declaration whose body we are in, with the brace depth of its body.
            var current: (name: String, isPoint: Bool, isDefinition: Bool, depth: Int)?
            var depth = 0
            var previous: SwiftToken?
            var earlier: SwiftToken?
            while let token = stream.next() {
                defer { (earlier, previous) = (previous, token) }
                if token.isPunctuation("{") { depth += 1; continue }
                if token.isPunctuation("}") {
                    depth -= 1
                    if let open = current, depth < open.depth { current = nil }
                    continue
                }
                let lexer = stream.lexer
                if token.isPlainWord, ["enum", "struct", "class", "actor"].contains(lexer.text(token.range)), previous?.isPunctuation(".") != true,
                    let name = stream.next(), name.isWord
                {
                    let conformances = readConformances(&stream)
                    let isPublic = [previous, earlier].contains { word in
                        word.map { $0.isPlainWord && (lexer.token($0, is: "public") || lexer.token($0, is: "open")) } ?? false
                    }
                    if conformances.contains("AppModule"), isPublic {
                        modules.append(AppModuleDeclaration(typeName: lexer.text(name.range), line: name.line, column: lexer.column(of: name)))
                    }
                    let isPoint = conformances.contains("ExtensionPoint")
                    let isDefinition = conformances.contains("PluginDefinition")
                    if isPoint || isDefinition {
                        current = (lexer.text(name.range), isPoint, isDefinition, depth + 1)
                        if isDefinition {
                            // No `settings` written means the protocol's default: none.
                            definitions.append(
                                PluginDefinitionDeclaration(
                                    typeName: lexer.text(name.range), id: nil, settings: [:], line: name.line, column: lexer.column(of: name)))
                        }
                    }
                    continue
                }
                guard let open = current, depth == open.depth, token.isPlainWord, lexer.token(token, is: "static") else { continue }
                guard let keyword = stream.next(), keyword.isPlainWord, lexer.token(keyword, is: "let") || lexer.token(keyword, is: "var"),
                    let name = stream.next(), name.isWord
                else { continue }
                let property = lexer.text(name.range)
                let (annotation, value) = readInitializer(&stream)
                guard let value else {
                    // A computed `settings` (`{ ... }`) cannot be read either.
                    if property == "settings", open.isDefinition { definitions[definitions.count - 1].settings = nil }
                    continue
                }
                // A literal is the whole value: `"a" + b` or `"a".lowercased()` is not one.
                let literal = lexer.stringValue(value).flatMap { text in endsValue(&stream) ? text : nil }
                if property == "id", open.isPoint, annotation == "ExtensionPointID" {
                    points.append(ExtensionPointDeclaration(id: literal, typeName: open.name, line: value.line, column: lexer.column(of: value)))
                } else if property == "id", open.isDefinition {
                    definitions[definitions.count - 1].id = literal
                } else if property == "settings", open.isDefinition {
                    definitions[definitions.count - 1].settings = value.isPunctuation("[") ? readSchema(&stream) : nil
                }
            }
            return WiringFacts(points: points, definitions: definitions, modules: modules)
        }
    }

    /// Whether the token after a value ends the declaration (another declaration, the body's end, or
    /// nothing), rather than continuing the expression; the token is pushed back.
    private static func endsValue(_ stream: inout TokenStream) -> Bool {
        guard let next = stream.next() else { return true }
        stream.pushBack(next)
        return next.isWord || next.isPunctuation("}") || next.isPunctuation("@") || next.isPunctuation(";")
            || { if case .directive = next.kind { return true } else { return false } }()
    }

    /// The names after `:` up to the body's `{` (or a `where` clause), pushing the `{` back.
    private static func readConformances(_ stream: inout TokenStream) -> [String] {
        var names: [String] = []
        guard let colon = stream.next() else { return names }
        guard colon.isPunctuation(":") else { stream.pushBack(colon); return names }
        while let token = stream.next() {
            if token.isPunctuation("{") { stream.pushBack(token); break }
            if token.isPlainWord, stream.lexer.token(token, is: "where") { continue }
            if token.isWord { names.append(stream.lexer.text(token.range)) }
        }
        return names
    }

    /// After `static let name`: the type annotation's last word, if any, and the first token of the value.
    private static func readInitializer(_ stream: inout TokenStream) -> (annotation: String?, value: SwiftToken?) {
        var annotation: String?
        guard var token = stream.next() else { return (nil, nil) }
        if token.isPunctuation(":") {
            while let next = stream.next(), !next.isPunctuation("=") {
                if next.isPunctuation("{") { stream.pushBack(next); return (annotation, nil) }
                if next.isWord { annotation = stream.lexer.text(next.range) }
            }
            guard let value = stream.next() else { return (annotation, nil) }
            return (annotation, value)
        }
        guard token.isPunctuation("=") else { stream.pushBack(token); return (nil, nil) }
        guard let value = stream.next() else { return (nil, nil) }
        token = value
        return (annotation, token)
    }

    /// `"key": .type, ...]` after a schema's `[` (`[:]` reads as empty).
    private static func readSchema(_ stream: inout TokenStream) -> [String: String] {
        var schema: [String: String] = [:]
        var key: String?
        while let token = stream.next(), !token.isPunctuation("]") {
            if let text = stream.lexer.stringValue(token) {
                key = text
            } else if token.isWord, let pending = key {
                schema[pending] = stream.lexer.text(token.range)
                key = nil
            }
        }
        return schema
    }
}
