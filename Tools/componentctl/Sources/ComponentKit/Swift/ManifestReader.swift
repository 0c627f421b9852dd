/// Reads a `Package.swift` statically (never by running it): a small expression parser over
/// ``SwiftLexer`` tokens that understands literals, arrays, `+`, calls, and top-level `let`
/// bindings, which is the whole vocabulary of real manifests' dependency declarations.
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
        var manifest = try Interpreter(bindings: parser.bindings).manifest(from: statements)
        // `package.dependencies += ...`, at the top or inside an `if` (the manifest's variable is always `package`); targets
        // added so lie in the package's own folder, an input already.
        manifest.laterChanges = tokens.indices.dropLast(2).filter {
            tokens[$0].isWord && tokens[$0].text == "package" && tokens[$0 + 1].isPunctuation(".") && tokens[$0 + 2].text == "dependencies"
        }.map { tokens[$0].location }
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
        case identifier(String)
        case concatenation(Value, Value)
        case other

        func argument(_ label: String) -> Value? {
            guard case .call(_, let arguments, _) = self else { return nil }
            return arguments.first { $0.label == label }?.value
        }

        var string: String? {
            if case .string(let text, _) = self { return text }
            return nil
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

        /// `a + b`, comparisons (read and set aside), and `condition ? a : b`, whose value is both branches
        /// joined: a manifest that lists a product in one configuration declares it.
        mutating func parseExpression() -> Value {
            var value = parsePostfix()
            while let token = current {
                if token.isPunctuation("+") {
                    position += 1
                    value = .concatenation(value, parsePostfix())
                } else if isComparison() {
                    position += 2
                    _ = parsePostfix()
                    value = .other
                } else if token.isPunctuation("?") {
                    position += 1
                    let then = parseExpression()
                    guard current?.isPunctuation(":") == true else { return .other }
                    position += 1
                    value = .concatenation(then, parseExpression())
                } else {
                    break
                }
            }
            return value
        }

        /// Whether the next two tokens are `==`, `!=`, `<=`, `>=`, `&&` or `||`.
        private func isComparison() -> Bool {
            guard let first = current, position + 1 < tokens.count else { return false }
            let second = tokens[position + 1]
            return (["=", "!", "<", ">"].contains { first.isPunctuation($0) } && second.isPunctuation("="))
                || (first.isPunctuation("&") && second.isPunctuation("&")) || (first.isPunctuation("|") && second.isPunctuation("|"))
        }

        private mutating func parsePostfix() -> Value {
            guard let token = current else { return .other }
            var value: Value
            var name: String?
            if case .string(let interpolated) = token.kind {
                position += 1
                // An interpolated or multi-line literal is an expression: its value is the compiler's to work out.
                return interpolated || token.text.contains("\n") ? .other : .string(token.text, token.location)
            } else if token.isPunctuation("[") {
                position += 1
                value = .array(parseList(closing: "]").map(\.value))
            } else if token.isPunctuation(".") || token.isWord {
                if token.isPunctuation(".") { position += 1 }
                guard let word = current, word.isWord else { return .other }
                position += 1
                name = word.text
                value = .identifier(word.text)
            } else if token.isPunctuation("(") {
                position += 1
                let items = parseList(closing: ")")
                value = items.count == 1 && items[0].label == nil ? items[0].value : .other
            } else {
                position += 1
                return .other
            }
            // Member chains and calls: `Package.Dependency.package(path:)` is the call `package`.
            while let next = current {
                if next.isPunctuation("."), position + 1 < tokens.count, tokens[position + 1].isWord {
                    name = tokens[position + 1].text
                    value = .identifier(tokens[position + 1].text)
                    position += 2
                } else if next.isPunctuation("("), let callee = name {
                    let location = tokens[position - 1].location
                    position += 1
                    value = .call(name: callee, arguments: parseList(closing: ")"), location: location)
                    name = nil
                } else if next.isPunctuation("[") || next.isPunctuation("{") {
                    // A subscript (`Context.environment["X"]`) or a trailing closure (`.map { ... }`): not modelled.
                    skipBalanced()
                    value = .other
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
                    value = .other
                }
                items.append((label, value))
                if position == before { position += 1 }
                // Skip whatever this parser does not model (closures, operators) up to the next item.
                skipRestOfItem(closing: closing)
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

    struct Interpreter {
        let bindings: [String: Value]

        func manifest(from statements: [Value]) throws -> PackageManifest {
            let calls = (statements + bindings.values).flatMap(packageCalls)
            guard let package = calls.first else {
                throw ManifestError(message: "no 'let package = Package(...)' found")
            }
            let dependencies = elements(package.argument("dependencies")).compactMap(dependency)
            let products = elements(package.argument("products")).compactMap(product)
            let targets = elements(package.argument("targets")).compactMap(target)
            return PackageManifest(name: package.argument("name")?.string, dependencies: dependencies, products: products, targets: targets)
        }

        private func packageCalls(_ value: Value) -> [Value] {
            switch value {
            case .call(let name, let arguments, _):
                return name == "Package" ? [value] : arguments.flatMap { packageCalls($0.value) }
            case .identifier(let name):
                return bindings[name].map(packageCalls) ?? []
            default:
                return []
            }
        }

        /// The elements of an array expression, following bindings and `+`.
        private func elements(_ value: Value?, depth: Int = 0) -> [Value] {
            guard let value, depth < 16 else { return [] }
            switch value {
            case .array(let items): return items
            case .identifier(let name): return elements(bindings[name], depth: depth + 1)
            case .concatenation(let left, let right): return elements(left, depth: depth + 1) + elements(right, depth: depth + 1)
            default: return []
            }
        }

        private func resolved(_ value: Value) -> Value {
            if case .identifier(let name) = value, let bound = bindings[name] { return bound }
            return value
        }

        private func dependency(_ value: Value) -> PackageDependency? {
            guard case .call("package", _, let location) = resolved(value) else { return nil }
            let value = resolved(value)
            if case .string(let path, let at)? = value.argument("path") {
                return PackageDependency(path: path, url: nil, location: at)
            }
            if case .string(let url, let at)? = value.argument("url") {
                let requirement = ["exact", "revision", "from", "branch"].lazy.compactMap { label in
                    value.argument(label)?.string.map { "\(label): \($0)" }
                }.first
                return PackageDependency(path: nil, url: url, location: at, requirement: requirement)
            }
            return PackageDependency(path: nil, url: nil, location: location)
        }

        private func product(_ value: Value) -> ProductDeclaration? {
            guard case .call(let kind, _, _) = resolved(value), kind == "library" || kind == "executable",
                let name = resolved(value).argument("name")?.string
            else { return nil }
            var isDynamic = false
            if kind == "library", case .identifier("dynamic")? = resolved(value).argument("type") { isDynamic = true }
            return ProductDeclaration(
                name: name, targets: elements(resolved(value).argument("targets")).compactMap(\.string), isDynamicLibrary: isDynamic,
                isExecutable: kind == "executable")
        }

        private func target(_ value: Value) -> TargetDeclaration? {
            let value = resolved(value)
            guard case .call(let kindName, _, let location) = value, let kind = TargetDeclaration.Kind(rawValue: kindName),
                let name = value.argument("name")?.string
            else { return nil }
            let dependencies = elements(value.argument("dependencies")).compactMap(targetDependency)
            return TargetDeclaration(name: name, kind: kind, path: value.argument("path")?.string, dependencies: dependencies, location: location)
        }

        private func targetDependency(_ value: Value) -> TargetDependency? {
            switch resolved(value) {
            case .string(let name, let location):
                return TargetDependency(reference: .byName(name), location: location)
            case .call("product", _, let location):
                guard let name = resolved(value).argument("name")?.string else { return nil }
                let package = resolved(value).argument("package")?.string ?? name
                return TargetDependency(reference: .product(name, package: package), location: location)
            case .call("target", _, let location):
                return resolved(value).argument("name")?.string.map { TargetDependency(reference: .target($0), location: location) }
            case .call("byName", _, let location):
                return resolved(value).argument("name")?.string.map { TargetDependency(reference: .byName($0), location: location) }
            default:
                return nil
            }
        }
    }
}
