import Foundation

/// A typed route or service protocol an interface declares, and the use of one in a source: what the
/// closed-app check follows from a component to the feature that provides it.
public enum AppUseScanner {
    /// What an interface offers other components, by Swift name.
    public struct Contract: Sendable, Equatable {
        /// Types conforming to `Route`, by qualified name (`OrderRoute.List`).
        public var routes: Set<String> = []
        /// Protocols declared at the top level: what others resolve as services.
        public var services: Set<String> = []
    }

    /// A use of a contract's type in a source.
    public struct Use: Sendable, Equatable {
        /// The route's or service's name as written.
        public var name: String
        /// Whether it is a service resolved (else a route opened or linked).
        public var isService: Bool
        /// 1-based line.
        public var line: Int
        /// 1-based column.
        public var column: Int
    }

    /// The routes and service protocols the Swift source `bytes` declares. Types nested in other types or
    /// in their extensions get qualified names.
    public static func contract(of bytes: [UInt8]) -> Contract {
        bytes.withUnsafeBufferPointer { buffer in
            var stream = TokenStream(lexer: SwiftLexer(buffer))
            var contract = Contract()
            var scopes: [(name: String, depth: Int)] = []
            var pending: String?
            var depth = 0
            var previous: SwiftToken?
            while let token = stream.next() {
                defer { previous = token }
                if token.isPunctuation("{") {
                    depth += 1
                    if let name = pending { scopes.append((name, depth)) }
                    pending = nil
                    continue
                }
                if token.isPunctuation("}") {
                    depth -= 1
                    while let last = scopes.last, last.depth > depth { scopes.removeLast() }
                    continue
                }
                let lexer = stream.lexer
                guard token.isPlainWord, previous?.isPunctuation(".") != true else { continue }
                let keyword = lexer.text(token.range)
                if keyword == "protocol", depth == 0, let name = stream.next(), name.isWord {
                    contract.services.insert(lexer.text(name.range))
                } else if ["struct", "class", "enum", "actor", "extension"].contains(keyword), let name = stream.next(), name.isWord {
                    var qualified = (scopes.map(\.name) + [lexer.text(name.range)]).joined(separator: ".")
                    // `extension A.B {`: the path as written.
                    var conformances: [String] = []
                    var afterColon = false
                    while let next = stream.next() {
                        if next.isPunctuation("{") { stream.pushBack(next); break }
                        if next.isPunctuation(":") { afterColon = true; continue }
                        if next.isPunctuation("."), !afterColon, let part = stream.next(), part.isWord {
                            qualified += "." + lexer.text(part.range)
                            continue
                        }
                        if afterColon, next.isWord { conformances.append(lexer.text(next.range)) }
                    }
                    if keyword != "extension", conformances.contains("Route") { contract.routes.insert(qualified) }
                    pending = keyword == "extension" ? qualified : qualified
                }
            }
            return contract
        }
    }

    /// The uses in the Swift source `bytes` of the routes and services of `contract`: a route named
    /// anywhere (`OrderRoute.Detail(id: 1)`), a service inside a `resolve(...)` call.
    public static func uses(in bytes: [UInt8], of contract: Contract) -> [Use] {
        bytes.withUnsafeBufferPointer { buffer in
            var stream = TokenStream(lexer: SwiftLexer(buffer))
            var uses: [Use] = []
            var chain: (text: String, start: SwiftToken, reported: Bool)?
            var previous: SwiftToken?
            var parentheses = 0
            var resolveDepth: Int?
            var afterResolve = false
            while let token = stream.next() {
                defer { previous = token }
                let lexer = stream.lexer
                if token.isPunctuation("(") {
                    parentheses += 1
                    if afterResolve, resolveDepth == nil { resolveDepth = parentheses }
                } else if token.isPunctuation(")") {
                    if resolveDepth == parentheses { resolveDepth = nil }
                    parentheses -= 1
                }
                afterResolve = token.isPlainWord && lexer.token(token, is: "resolve")
                guard token.isWord else {
                    if !token.isPunctuation(".") { chain = nil }
                    continue
                }
                let word = lexer.text(token.range)
                if previous?.isPunctuation(".") == true, var current = chain {
                    current.text += "." + word
                    chain = current
                } else {
                    chain = (word, token, false)
                }
                guard var current = chain, !current.reported else { continue }
                if contract.routes.contains(current.text) {
                    uses.append(Use(name: current.text, isService: false, line: current.start.line, column: lexer.column(of: current.start)))
                    current.reported = true
                    chain = current
                } else if resolveDepth != nil, contract.services.contains(word) {
                    uses.append(Use(name: word, isService: true, line: token.line, column: lexer.column(of: token)))
                }
            }
            return uses
        }
    }

    /// Every interface's contract in a workspace, and which feature provides each name.
    public struct Index: Sendable {
        /// The routes and services of every interface that has an implementation.
        public var contract = Contract()
        /// The interface declaring each name, and its implementation.
        public var owners: [String: (interface: String, provider: String)] = [:]

        /// The index of `analysis`, its interfaces' sources read again.
        public init(_ analysis: WorkspaceAnalysis) {
            let workspace = analysis.workspace
            for interface in workspace.components where interface.kind == .interface {
                guard let provider = workspace.implementation(of: interface.name) else { continue }
                for file in AppUseScanner.files(of: interface.name, in: analysis) {
                    let declared = AppUseScanner.contract(of: file.bytes)
                    for name in declared.routes.union(declared.services) { owners[name] = (interface.name, provider.name) }
                    contract.routes.formUnion(declared.routes)
                    contract.services.formUnion(declared.services)
                }
            }
        }

        /// The uses in `files` with the interface and provider of each.
        public func sites(in files: [(path: String, bytes: [UInt8])]) -> [Site] {
            files.flatMap { file in
                AppUseScanner.uses(in: file.bytes, of: contract).compactMap { use in
                    owners[use.name].map { Site(file: file.path, use: use, interface: $0.interface, provider: $0.provider) }
                }
            }
        }
    }

    /// A use of another feature's contract, in a file of a component or of the shell.
    public struct Site: Sendable {
        /// The file, relative to the root.
        public var file: String
        /// The use.
        public var use: Use
        /// The interface declaring what is used.
        public var interface: String
        /// The feature that provides it.
        public var provider: String
    }

    /// The Swift files of `component`'s library targets (what an app links), read again.
    public static func files(of component: String, in analysis: WorkspaceAnalysis) -> [(path: String, bytes: [UInt8])] {
        let root = analysis.workspace.root
        return (analysis.packages[component]?.targets ?? []).filter { $0.declaration.kind == .regular }.flatMap { target in
            target.files.compactMap { file in
                FileManager.default.contents(atPath: root.appendingPathComponent(file.path).path).map { (file.path, Array($0)) }
            }
        }
    }
}
