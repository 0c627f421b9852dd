/// Reads a `Package.swift` statically (never by running it): a small expression parser over
/// ``SwiftLexer`` tokens that understands literals, arrays, `+`, calls, and top-level `let`
/// bindings. What it cannot evaluate with certainty (helper functions, extensions, `#if`, `?:`, statements
/// that change `package` or a binding, a value it does not model) it lists in
/// ``PackageManifest/unresolved``: ``ManifestLoader`` then asks SwiftPM instead.
public enum ManifestReader {
    /// The manifest in `bytes`.
    public static func read(_ bytes: [UInt8]) throws -> PackageManifest {
        var rawTexts: [String] = []
        let tokens = bytes.withUnsafeBufferPointer { buffer in
            var lexer = SwiftLexer(buffer)
            var tokens: [Token] = []
            while let token = lexer.next() {
                rawTexts.append(lexer.text(token.range))
                let text: String
                switch token.kind {
                case .string: text = lexer.stringValue(token) ?? ""
                default: text = lexer.text(token.range)
                }
                tokens.append(Token(kind: token.kind, text: text, location: ManifestLocation(line: token.line, column: lexer.column(of: token))))
            }
            return tokens
        }
        try ManifestSyntax.check(tokens, rawTexts: rawTexts)
        var parser = Parser(tokens: tokens)
        let statements = parser.parseFile()
        let interpreter = Interpreter(bindings: parser.bindings, toolsVersion: PackageManifest.toolsVersion(in: bytes))
        var manifest = try interpreter.manifest(from: statements)
        // What SwiftPM refuses before it reads a value: a tools-version line it does not accept, no PackageDescription.
        var refused: [ManifestLocation] = []
        if !PackageManifest.hasValidToolsVersionLine(bytes) { refused.append(ManifestLocation(line: 1, column: 1)) }
        if !tokens.indices.contains(where: { tokens[$0].text == "import" && tokens.indices.contains($0 + 1) && tokens[$0 + 1].text == "PackageDescription" }) {
            refused.append(ManifestLocation(line: 1, column: 1))
        }
        manifest.unresolved = (refused + ManifestStatements.unfollowed(in: tokens) + interpreter.unresolved.places).sorted {
            ($0.line, $0.column) < ($1.line, $1.column)
        }
        manifest.surroundings = ManifestStatements.surroundings(of: tokens)
        manifest.toolsVersion = PackageManifest.toolsVersion(in: bytes)
        return manifest
    }

    struct Token {
        var kind: SwiftToken.Kind
        var text: String
        var location: ManifestLocation

        func isPunctuation(_ character: Unicode.Scalar) -> Bool {
            if case .punctuation(let byte) = kind { return byte == UInt8(ascii: character) }
            return false
        }

        var isWord: Bool {
            if case .word = kind { return true }
            return false
        }
    }

    indirect enum Value {
        case string(String, ManifestLocation)
        case call(name: String, arguments: [(label: String?, value: Value)], location: ManifestLocation)
        case array([Value])
        case identifier(String, ManifestLocation)
        case concatenation(Value, Value)
        /// `lower..<upper`.
        case range(Value, Value)
        /// Something the reader does not model, where it starts.
        case other(ManifestLocation?)

        func argument(_ label: String) -> Value? {
            guard case .call(_, let arguments, _) = self else { return nil }
            return arguments.first { $0.label == label }?.value
        }

        var string: String? {
            if case .string(let text, _) = self { return text }
            return nil
        }

        /// Where the value starts, when known.
        var location: ManifestLocation? {
            switch self {
            case .string(_, let location), .call(_, _, let location), .identifier(_, let location): location
            case .array(let items): items.first?.location
            case .concatenation(let left, _), .range(let left, _): left.location
            case .other(let location): location
            }
        }
    }

    struct Parser {
        let tokens: [Token]
        var position = 0
        var bindings: [String: Value] = [:]

        init(tokens: [Token]) {
            self.tokens = tokens
        }

        var current: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func parseFile() -> [Value] {
            var values: [Value] = []
            while let token = current {
                if token.isWord, token.text == "let" || token.text == "var", position + 1 < tokens.count, tokens[position + 1].isWord {
                    let name = tokens[position + 1].text
                    position += 2
                    skipToAssignment()
                    guard current?.isPunctuation("=") == true else { continue }
                    position += 1
                    bindings[name] = parseExpression()
                } else if token.isWord || token.isPunctuation(".") || token.isPunctuation("[") || token.isPunctuation("(") {
                    let before = position
                    values.append(parseExpression())
                    if position == before { position += 1 }
                } else {
                    position += 1
                }
            }
            return values
        }

        /// Skips a type annotation up to the `=` of a binding.
        private mutating func skipToAssignment() {
            var depth = 0
            while let token = current {
                if token.isPunctuation("[") || token.isPunctuation("(") || token.isPunctuation("<") { depth += 1 }
                if token.isPunctuation("]") || token.isPunctuation(")") || token.isPunctuation(">") { depth -= 1 }
                if depth <= 0, token.isPunctuation("=") || (token.isWord && (token.text == "let" || token.text == "var")) { return }
                position += 1
            }
        }

        /// `a + b` and `a..<b`; comparisons and `condition ? a : b` are read past, their value unknown.
        mutating func parseExpression() -> Value {
            var value = parsePostfix()
            while let token = current {
                if token.isPunctuation("+") {
                    position += 1
                    value = .concatenation(value, parsePostfix())
                } else if isHalfOpenRange() {
                    position += 3
                    value = .range(value, parsePostfix())
                } else if isComparison() {
                    position += 2
                    _ = parsePostfix()
                    value = .other(token.location)
                } else if token.isPunctuation("?") {
                    // `condition ? a : b`: which branch SwiftPM takes is for SwiftPM to say.
                    position += 1
                    _ = parseExpression()
                    guard current?.isPunctuation(":") == true else { return .other(token.location) }
                    position += 1
                    _ = parseExpression()
                    value = .other(token.location)
                } else {
                    break
                }
            }
            return value
        }

        /// Whether the next three tokens are `..<`.
        private func isHalfOpenRange() -> Bool {
            position + 2 < tokens.count && tokens[position].isPunctuation(".") && tokens[position + 1].isPunctuation(".")
                && tokens[position + 2].isPunctuation("<")
        }

        /// Whether the next two tokens are `==`, `!=`, `<=`, `>=`, `&&` or `||`.
        private func isComparison() -> Bool {
            guard let first = current, position + 1 < tokens.count else { return false }
            let second = tokens[position + 1]
            return (["=", "!", "<", ">"].contains { first.isPunctuation($0) } && second.isPunctuation("="))
                || (first.isPunctuation("&") && second.isPunctuation("&")) || (first.isPunctuation("|") && second.isPunctuation("|"))
        }

        private mutating func parsePostfix() -> Value {
            guard let token = current else { return .other(nil) }
            var value: Value
            var name: String?
            if case .string(let interpolated) = token.kind {
                position += 1
                // An interpolated or multi-line literal is an expression: its value is the compiler's to work out.
                return interpolated || token.text.utf8.contains(UInt8(ascii: "\n")) ? .other(token.location) : .string(token.text, token.location)
            } else if token.isPunctuation("[") {
                position += 1
                value = .array(parseList(closing: "]").map(\.value))
            } else if token.isPunctuation(".") || token.isWord {
                if token.isPunctuation(".") { position += 1 }
                guard let word = current, word.isWord else { return .other(token.location) }
                position += 1
                name = word.text
                value = .identifier(word.text, token.location)
            } else if token.isPunctuation("(") {
                position += 1
                let items = parseList(closing: ")")
                value = items.count == 1 && items[0].label == nil ? items[0].value : .other(token.location)
            } else {
                position += 1
                return .other(token.location)
            }
            // Member chains and calls: `Package.Dependency.package(path:)` is the call `package`.
            while let next = current {
                if next.isPunctuation("."), position + 1 < tokens.count, tokens[position + 1].isWord {
                    name = tokens[position + 1].text
                    value = .identifier(tokens[position + 1].text, token.location)
                    position += 2
                } else if next.isPunctuation("("), let callee = name {
                    let location = tokens[position - 1].location
                    position += 1
                    value = .call(name: callee, arguments: parseList(closing: ")"), location: location)
                    name = nil
                } else if next.isPunctuation("[") || next.isPunctuation("{") {
                    // A subscript (`Context.environment["X"]`) or a trailing closure (`.map { ... }`): not modelled.
                    skipBalanced()
                    value = .other(token.location)
                    name = nil
                } else {
                    break
                }
            }
            return value
        }

        /// Parses `label: value, value, ...` up to `closing`; dictionary entries become `.other`.
        private mutating func parseList(closing: Unicode.Scalar) -> [(label: String?, value: Value)] {
            var items: [(label: String?, value: Value)] = []
            while let token = current, !token.isPunctuation(closing) {
                if token.isPunctuation(",") {
                    position += 1
                    continue
                }
                var label: String?
                if token.isWord, position + 1 < tokens.count, tokens[position + 1].isPunctuation(":") {
                    label = token.text
                    position += 2
                }
                let before = position
                var value = parseExpression()
                if current?.isPunctuation(":") == true { // a dictionary entry: skip its value
                    position += 1
                    _ = parseExpression()
                    value = .other(token.location)
                }
                if position == before { position += 1 }
                // Whatever this parser does not model (operators, a closed range) up to the next item makes the item unknown.
                if let rest = current, !rest.isPunctuation(","), !rest.isPunctuation(closing) {
                    value = .other(rest.location)
                    skipRestOfItem(closing: closing)
                }
                items.append((label, value))
            }
            if current != nil { position += 1 }
            return items
        }

        /// Skips a bracketed group from its opening bracket to the matching closing one.
        private mutating func skipBalanced() {
            var depth = 0
            while let token = current {
                if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") { depth += 1 }
                if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") { depth -= 1 }
                position += 1
                if depth == 0 { return }
            }
        }

        private mutating func skipRestOfItem(closing: Unicode.Scalar) {
            var depth = 0
            while let token = current {
                if depth == 0, token.isPunctuation(",") || token.isPunctuation(closing) { return }
                if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") { depth += 1 }
                if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") { depth -= 1 }
                if depth < 0 { return }
                position += 1
            }
        }
    }

    /// The places an evaluation met something it could not be sure of; a class so the interpreter's helpers can add to it.
    final class Unresolved {
        var places: [ManifestLocation] = []

        func note(_ value: Value?, or fallback: ManifestLocation) {
            places.append(value?.location ?? fallback)
        }
    }

    struct Interpreter {
        let bindings: [String: Value]
        let unresolved = Unresolved()

        /// The tools version the manifest declares: what PackageDescription offers it.
        let toolsVersion: [Int]

        /// Notes `value` unresolved when it is a call `signature` does not allow: an argument the function does not take,
        /// arguments out of their order, or what the declared tools version does not offer yet. Such a call does not
        /// compile (or calls an overload the reader does not model), so SwiftPM reads the manifest and quotes the compiler.
        private func check(_ value: Value, against signature: Signature?) {
            guard case .call(_, let arguments, let location) = value, let signature else { return }
            var previous = -1
            var filled = Set<Int>()
            for argument in arguments {
                guard let place = signature.places.firstIndex(where: { $0.contains(argument.label) }), place > previous,
                    !toolsVersion.lexicographicallyPrecedes(signature.argumentSince[argument.label ?? ""] ?? [0])
                else { return unresolved.note(argument.value, or: location) }
                previous = place
                filled.insert(place)
            }
            if toolsVersion.lexicographicallyPrecedes(signature.since) || !signature.required.isSubset(of: filled) { unresolved.note(value, or: location) }
        }

        func manifest(from statements: [Value]) throws -> PackageManifest {
            let calls = (statements + bindings.values).flatMap(packageCalls)
            guard case .call(_, _, let location)? = calls.first, let package = calls.first else {
                throw ManifestError(message: "no 'let package = Package(...)' found")
            }
            // Two declarations do not compile; SwiftPM says which.
            if calls.count > 1 { unresolved.note(calls[1], or: location) }
            check(package, against: Signature.package)
            let name = package.argument("name")
            if name != nil, name?.string == nil { unresolved.note(name, or: location) }
            let dependencies = elements(package.argument("dependencies"), at: location).compactMap(dependency)
            let products = elements(package.argument("products"), at: location).compactMap(product)
            let targets = elements(package.argument("targets"), at: location).compactMap(target)
            return PackageManifest(name: name?.string, dependencies: dependencies, products: products, targets: targets)
        }

        private func packageCalls(_ value: Value) -> [Value] {
            switch value {
            case .call(let name, let arguments, _):
                return name == "Package" ? [value] : arguments.flatMap { packageCalls($0.value) }
            case .identifier(let name, _):
                return bindings[name].map(packageCalls) ?? []
            default:
                return []
            }
        }

        /// The elements of an array expression (none when `value` is absent), following bindings and `+`; anything else is
        /// unresolved.
        private func elements(_ value: Value?, at location: ManifestLocation, depth: Int = 0) -> [Value] {
            guard let value else { return [] }
            switch value {
            case .array(let items): return items
            case .identifier(let name, _) where depth < 16 && bindings[name] != nil:
                return elements(bindings[name], at: location, depth: depth + 1)
            case .concatenation(let left, let right) where depth < 16:
                return elements(left, at: location, depth: depth + 1) + elements(right, at: location, depth: depth + 1)
            default:
                unresolved.note(value, or: location)
                return []
            }
        }

        private func resolved(_ value: Value) -> Value {
            if case .identifier(let name, _) = value, let bound = bindings[name] { return bound }
            return value
        }

        /// The string `value` holds, noting it unresolved when it is something else.
        private func literal(_ value: Value?, at location: ManifestLocation) -> String? {
            guard let value else { return nil }
            guard let text = resolved(value).string else {
                unresolved.note(value, or: location)
                return nil
            }
            return text
        }

        private func dependency(_ value: Value) -> PackageDependency? {
            let value = resolved(value)
            guard case .call("package", let arguments, let location) = value else {
                unresolved.note(value, or: ManifestLocation(line: 1, column: 1))
                return nil
            }
            check(value, against: Signature.packageDependency)
            let name = literal(value.argument("name"), at: location)
            if case .string(let path, let at)? = value.argument("path") {
                // A local package has no version to require.
                if arguments.count > (name == nil ? 1 : 2) { unresolved.note(value, or: location) }
                return PackageDependency(name: name, path: path, url: nil, location: at)
            }
            if case .string(let url, let at)? = value.argument("url") {
                let requirements = arguments.filter { $0.label != "url" && $0.label != "name" && $0.label != "traits" }
                let requirement = requirements.count == 1 ? Self.requirement(requirements[0]) : nil
                if requirement == nil { unresolved.note(requirements.first?.value, or: location) }
                return PackageDependency(name: name, path: nil, url: url, location: at, requirement: requirement)
            }
            unresolved.note(value.argument("path") ?? value.argument("url"), or: location)
            return PackageDependency(name: name, path: nil, url: nil, location: location)
        }

        /// A version requirement in the words ``PackageDependency/requirement`` uses, whichever of SwiftPM's spellings the
        /// manifest chose (`from:`, `.upToNextMajor(from:)`, `"1.0.0"..<"2.0.0"`, `.exact("1.0.0")`, ...).
        private static func requirement(_ argument: (label: String?, value: Value)) -> String? {
            switch (argument.label, argument.value) {
            case ("from", .string(let version, _)):
                return "from: \(version)"
            case (let label?, .string(let text, _)) where ["exact", "revision", "branch"].contains(label):
                return "\(label): \(text)"
            case (nil, .range(.string(let lower, _), .string(let upper, _))):
                return PackageDependency.requirement(lower: lower, upper: upper)
            case (nil, .call(let name, let arguments, _)) where arguments.count == 1:
                guard let text = arguments[0].value.string else { return nil }
                switch (name, arguments[0].label) {
                case ("upToNextMajor", "from"): return "from: \(text)"
                case ("upToNextMinor", "from"): return "upToNextMinor: \(text)"
                case ("exact", nil), ("revision", nil), ("branch", nil): return "\(name): \(text)"
                default: return nil
                }
            default:
                return nil
            }
        }

        private func product(_ value: Value) -> ProductDeclaration? {
            let value = resolved(value)
            guard case .call(let kind, _, let location) = value, ["library", "executable", "plugin"].contains(kind) else {
                unresolved.note(value, or: ManifestLocation(line: 1, column: 1))
                return nil
            }
            check(value, against: Signature.products[kind])
            guard let name = literal(value.argument("name"), at: location) else { return nil }
            var isDynamic = false
            if kind == "library", let type = value.argument("type") {
                guard case .identifier(let linkage, _) = type, linkage == "dynamic" || linkage == "static" else {
                    unresolved.note(type, or: location)
                    return nil
                }
                isDynamic = linkage == "dynamic"
            }
            let targets = elements(value.argument("targets"), at: location).compactMap { literal($0, at: location) }
            return ProductDeclaration(
                name: name, targets: targets, isDynamicLibrary: isDynamic, isExecutable: kind == "executable", isPlugin: kind == "plugin")
        }

        private func target(_ value: Value) -> TargetDeclaration? {
            let value = resolved(value)
            guard case .call(let kindName, _, let location) = value, let kind = TargetDeclaration.Kind(rawValue: kindName) else {
                unresolved.note(value, or: ManifestLocation(line: 1, column: 1))
                return nil
            }
            check(value, against: Signature.targets[kindName])
            // A binary target is a local file, or a URL with its checksum.
            if kind == .binary, (value.argument("url") == nil) != (value.argument("checksum") == nil) { unresolved.note(value, or: location) }
            guard let name = literal(value.argument("name"), at: location) else { return nil }
            let dependencies = elements(value.argument("dependencies"), at: location).compactMap(targetDependency)
            var target = TargetDeclaration(
                name: name, kind: kind, path: literal(value.argument("path"), at: location), dependencies: dependencies, location: location)
            if let sources = value.argument("sources") {
                target.sources = elements(sources, at: location).compactMap { literal($0, at: location) }
            }
            target.exclude = elements(value.argument("exclude"), at: location).compactMap { literal($0, at: location) }
            target.plugins = elements(value.argument("plugins"), at: location).compactMap(pluginUsage)
            return target
        }

        /// `"Name"` (a plugin of this package) or `.plugin(name:package:)`.
        private func pluginUsage(_ value: Value) -> TargetDependency? {
            check(resolved(value), against: Signature.pluginUsage)
            switch resolved(value) {
            case .string(let name, let location):
                return TargetDependency(reference: .target(name), location: location)
            case .call("plugin", _, let location):
                guard let name = literal(resolved(value).argument("name"), at: location) else { return nil }
                guard let package = resolved(value).argument("package") else { return TargetDependency(reference: .target(name), location: location) }
                return literal(package, at: location).map { TargetDependency(reference: .product(name, package: $0), location: location) }
            default:
                unresolved.note(value, or: ManifestLocation(line: 1, column: 1))
                return nil
            }
        }

        private func targetDependency(_ value: Value) -> TargetDependency? {
            if case .call(let kind, _, _) = resolved(value) { check(resolved(value), against: Signature.targetDependencies[kind]) }
            switch resolved(value) {
            case .string(let name, let location):
                return TargetDependency(reference: .byName(name), location: location)
            case .call("product", _, let location), .call("productItem", _, let location):
                guard let name = literal(resolved(value).argument("name"), at: location) else { return nil }
                let package = literal(resolved(value).argument("package"), at: location) ?? name
                return TargetDependency(reference: .product(name, package: package), location: location)
            case .call("target", _, let location), .call("targetItem", _, let location):
                return literal(resolved(value).argument("name"), at: location).map { TargetDependency(reference: .target($0), location: location) }
            case .call("byName", _, let location), .call("byNameItem", _, let location):
                return literal(resolved(value).argument("name"), at: location).map { TargetDependency(reference: .byName($0), location: location) }
            default:
                unresolved.note(value, or: ManifestLocation(line: 1, column: 1))
                return nil
            }
        }
    }
}
