/// The generated block of the integrated Package.swift: the component packages the App uses, each
/// at its live folder or at its pinned checkout. Everything outside the block is hand-written.
public enum RootManifest {
    /// The block's first line.
    public static let begin = "// BEGIN componentctl: components"
    /// The block's last line.
    public static let end = "// END componentctl: components"

    /// `text` with the block as componentctl writes it (``canonical(_:index:checkouts:)``), each `.package(path:)`
    /// pointing where the pins say; throws without the block.
    public static func regenerate(_ text: String, workspace: Workspace, checkouts: [String: String]) throws -> String {
        let index = ComponentPaths(workspace)
        let regenerated = GeneratedBlock.manifest.rewriting(text) { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The first and last pieces are the rest of the marker lines.
            guard lines.count > 1 else { return block }
            let body = canonical(Array(lines.dropFirst().dropLast()), index: index, checkouts: checkouts).lines
            return ([lines[0]] + body + [lines[lines.count - 1]]).joined(separator: "\n")
        }
        guard let regenerated else {
            throw ToolError(
                "Package.swift \(GeneratedBlock.manifest.absence(in: text)). The two marker lines enclose the component packages "
                    + "componentctl writes: restore the missing one (git diff Package.swift shows it).", status: .usage)
        }
        return regenerated
    }

    /// The lines of the block componentctl did not write as they are, which `sync` rewrites or drops.
    public static func foreignLines(in text: String, workspace: Workspace) -> [String] {
        guard let range = GeneratedBlock.manifest.contents(in: text) else { return [] }
        let lines = text[range].split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().map(String.init)
        return canonical(lines, index: ComponentPaths(workspace), checkouts: nil).foreign
    }

    /// The block's lines as componentctl writes them: comments, blank lines and the lists' brackets as they are; each
    /// component package or product once, written the one way componentctl writes it (with `checkouts`, pointing at the
    /// pinned ones); anything else dropped. `foreign` lists the lines that were not so already.
    static func canonical(_ lines: [String], index: ComponentPaths, checkouts: [String: String]?) -> (lines: [String], foreign: [String]) {
        var kept: [String] = []
        var foreign: [String] = []
        var seen = Set<String>()
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let written: String?
            if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed == "]" || isListDeclaration(trimmed) {
                written = line
            } else if let path = trimmed.value(after: ".package(path: \""), let component = index.component(at: path) {
                // Regenerating, the pins decide where it points; checking, a line pointing at a pin is as componentctl wrote it.
                written = "    .package(path: \(swiftString(checkouts.map { $0[component.name] ?? component.path } ?? path))),"
                guard seen.insert("package \(component.name)").inserted else {
                    foreign.append(line)
                    continue
                }
            } else if let name = trimmed.value(after: ".product(name: \""), let rest = trimmed.range(of: "\", package: \""),
                let package = trimmed[rest.upperBound...].split(separator: "\"").first.map(String.init), index.isComponentFolder(package)
            {
                written = "    .product(name: \(swiftString(name)), package: \(swiftString(package))),"
                guard seen.insert("product \(name) \(package)").inserted else {
                    foreign.append(line)
                    continue
                }
            } else {
                written = nil
            }
            if let written { kept.append(written) }
            if written != line { foreign.append(line) }
        }
        return (kept, foreign)
    }

    /// Whether `line` opens one of the block's lists: `let NAME: [Package.Dependency] = [` (or `[Target.Dependency]`).
    private static func isListDeclaration(_ line: String) -> Bool {
        ["Package", "Target"].contains { kind in
            guard let name = line.removingAffixes("let ", ": [\(kind).Dependency] = [") else { return false }
            return !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
    }
}

/// Components by the paths a generated block may name, built once per manifest (one scan per line
/// would make regenerating the block quadratic in the number of components).
struct ComponentPaths {
    private let byPath: [String: Component]
    private let byFolderName: [String: [Component]]

    init(_ workspace: Workspace) {
        byPath = Dictionary(workspace.components.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        byFolderName = Dictionary(grouping: workspace.components, by: \.folderName)
    }

    /// Whether a component's package is called `name` (its folder's name).
    func isComponentFolder(_ name: String) -> Bool { byFolderName[name] != nil }

    /// The component whose live folder, or pinned checkout (`.pin-<name>-<version>/…/<Folder>`), is `path`.
    func component(at path: String) -> Component? {
        if let live = byPath[path] { return live }
        let parts = path.split(separator: "/")
        guard let pin = parts.first(where: { $0.hasPrefix(".pin-") }), let folder = parts.last else { return nil }
        return byFolderName[String(folder)]?.first { pin.hasPrefix(".pin-\($0.name)-") }
    }
}

extension String {
    /// The quoted value right after `prefix` when the text starts with it (`.package(path: "X"` gives X).
    fileprivate func value(after prefix: String) -> String? {
        guard hasPrefix(prefix) else { return nil }
        let rest = dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<quote])
    }

    /// The text between `prefix` and `suffix` when it starts and ends with them.
    fileprivate func removingAffixes(_ prefix: String, _ suffix: String) -> String? {
        guard hasPrefix(prefix), hasSuffix(suffix), count >= prefix.count + suffix.count else { return nil }
        return String(dropFirst(prefix.count).dropLast(suffix.count))
    }
}
