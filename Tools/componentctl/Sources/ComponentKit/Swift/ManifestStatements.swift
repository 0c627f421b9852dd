/// The top-level statements of a manifest that the static reader does not follow, and what else than its text a
/// manifest's value depends on.
enum ManifestStatements {
    /// Members of `package` whose change after the declaration leaves dependencies, products and targets as they were.
    private static let settingsOfPackage: Set<String> = [
        "platforms", "swiftLanguageVersions", "swiftLanguageModes", "cLanguageStandard", "cxxLanguageStandard", "defaultLocalization",
        "pkgConfig", "providers",
    ]
    /// Members of a target a settings loop (`for target in package.targets { target.swiftSettings = ... }`) may change.
    private static let settingsOfTarget: Set<String> = ["swiftSettings", "cSettings", "cxxSettings", "linkerSettings"]
    /// Members a settings loop may read without changing the target.
    private static let readableOfTarget: Set<String> = ["name", "type"]
    private static let mutatingMethods: Set<String> = [
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange", "replaceSubrange", "sort", "reverse",
        "formUnion", "subtract",
    ]
    private static let modifiers: Set<String> = ["private", "fileprivate", "internal", "public", "nonisolated"]

    /// Where each statement the reader does not follow starts: anything but imports, bindings, changes of `package`'s
    /// settings and loops that only change targets' settings; and every `#if`, wherever it stands.
    static func unfollowed(in tokens: [ManifestReader.Token]) -> [ManifestLocation] {
        var places = tokens.filter { if case .directive = $0.kind { true } else { false } }.map(\.location)
        for start in statementStarts(tokens) where !isFollowed(statementAt: start, in: tokens) {
            if case .directive = tokens[start].kind { continue }
            places.append(tokens[start].location)
        }
        return places
    }

    /// What the manifest's value depends on besides its text and the toolchain.
    static func surroundings(of tokens: [ManifestReader.Token]) -> ManifestSurroundings {
        var variables: [String] = []
        for (index, token) in tokens.enumerated() {
            if case .poundWord = token.kind { return .unknown }
            guard token.isWord else { continue }
            switch token.text {
            case "FileManager", "FileHandle", "packageDirectory", "gitInformation", "contentsOfDirectory", "contentsOf", "contentsOfFile",
                "contentsOfURL", "fileExists", "fopen", "popen", "getenv", "Process":
                return .unknown
            case "environment":
                // `environment["NAME"]` names what it reads; any other use of the environment reads all of it.
                guard index + 3 < tokens.count, tokens[index + 1].isPunctuation("["), case .string(interpolated: false) = tokens[index + 2].kind,
                    tokens[index + 3].isPunctuation("]")
                else { return .unknown }
                variables.append(tokens[index + 2].text)
            default:
                continue
            }
        }
        return .environment(Array(Set(variables)).sorted())
    }

    /// The indices of the tokens that start a top-level statement: at no depth, on a new line, and not continuing the
    /// expression before.
    private static func statementStarts(_ tokens: [ManifestReader.Token]) -> [Int] {
        let continuing: [Unicode.Scalar] = [".", "+", "-", "*", "/", "?", ":", "=", "&", "|", ",", "(", "[", "<", ">", "!"]
        var starts: [Int] = []
        var depth = 0
        for (index, token) in tokens.enumerated() {
            defer {
                if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("{") { depth += 1 }
                if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation("}") { depth -= 1 }
            }
            guard depth == 0 else { continue }
            guard index > 0 else {
                starts.append(index)
                continue
            }
            let previous = tokens[index - 1]
            let opensLine = token.location.line > previous.location.line || previous.isPunctuation(";") || previous.isPunctuation("}")
            if case .directive = previous.kind {
                starts.append(index)
            } else if opensLine, !continuing.contains(where: { token.isPunctuation($0) || previous.isPunctuation($0) }), !token.isPunctuation(";") {
                starts.append(index)
            }
        }
        return starts
    }

    private static func isFollowed(statementAt start: Int, in tokens: [ManifestReader.Token]) -> Bool {
        var index = start
        while index < tokens.count, tokens[index].isWord, modifiers.contains(tokens[index].text) { index += 1 }
        guard index < tokens.count, tokens[index].isWord else { return false }
        switch tokens[index].text {
        case "import", "let", "var":
            return true
        case "package":
            return index + 3 < tokens.count && tokens[index + 1].isPunctuation(".") && settingsOfPackage.contains(tokens[index + 2].text)
                && isAssignment(at: index + 3, in: tokens)
        case "for":
            return isSettingsLoop(at: index, in: tokens)
        default:
            return false
        }
    }

    /// Whether the loop at `start` is `for name in package.targets [where ...] { ... }` and its body changes nothing but the
    /// settings of `name`.
    private static func isSettingsLoop(at start: Int, in tokens: [ManifestReader.Token]) -> Bool {
        guard start + 5 < tokens.count, tokens[start + 1].isWord, tokens[start + 2].text == "in", tokens[start + 3].text == "package",
            tokens[start + 4].isPunctuation("."), tokens[start + 5].text == "targets",
            let open = tokens[(start + 6)...].firstIndex(where: { $0.isPunctuation("{") }), let close = matchingBrace(open, in: tokens)
        else { return false }
        let variable = tokens[start + 1].text
        let body = Array(tokens[(open + 1)..<close])
        for (index, token) in body.enumerated() {
            if case .directive = token.kind { return false }
            if token.isWord, token.text == "package" { return false }
            if token.isWord, token.text == variable, index + 2 < body.count, body[index + 1].isPunctuation(".") {
                let member = body[index + 2].text
                guard settingsOfTarget.contains(member) || readableOfTarget.contains(member) else { return false }
                continue
            }
            let changes =
                (isAssignment(at: index, in: body) && !(index > 0 && body[index - 1].isPunctuation("+")))
                || (token.isPunctuation("+") && isAssignment(at: index + 1, in: body))
                || (token.isWord && mutatingMethods.contains(token.text) && index > 0 && body[index - 1].isPunctuation("."))
            if changes, !changesSettings(of: variable, before: token.isWord ? index - 1 : index, in: body) { return false }
        }
        return true
    }

    /// Whether the tokens just before `end` are `variable.<a settings member>`, perhaps with a `?`.
    private static func changesSettings(of variable: String, before end: Int, in tokens: [ManifestReader.Token]) -> Bool {
        var last = end - 1
        if last >= 0, tokens[last].isPunctuation("?") { last -= 1 }
        return last >= 2 && settingsOfTarget.contains(tokens[last].text) && tokens[last - 1].isPunctuation(".") && tokens[last - 2].text == variable
    }

    /// Whether the token at `index` is an assignment's `=` (not part of `==`, `!=`, `<=`, `>=` or `=>`).
    private static func isAssignment(at index: Int, in tokens: [ManifestReader.Token]) -> Bool {
        guard index < tokens.count, tokens[index].isPunctuation("=") else { return false }
        let before = index > 0 ? tokens[index - 1] : nil
        let after = index + 1 < tokens.count ? tokens[index + 1] : nil
        let comparing: [Unicode.Scalar] = ["=", "!", "<", ">"]
        return !(before.map { b in comparing.contains { b.isPunctuation($0) } } ?? false)
            && !(after.map { $0.isPunctuation("=") || $0.isPunctuation(">") } ?? false)
    }

    private static func matchingBrace(_ open: Int, in tokens: [ManifestReader.Token]) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isPunctuation("{") { depth += 1 }
            if tokens[index].isPunctuation("}") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}

/// What a manifest's value depends on besides its text and the toolchain.
public enum ManifestSurroundings: Sendable, Hashable {
    /// The values of these environment variables (none: the text alone).
    case environment([String])
    /// Files, the environment as a whole, or other things a reader cannot list.
    case unknown
}
