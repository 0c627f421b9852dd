/// The generated block of the integrated Package.swift: the component packages the App uses, each
/// at its live folder or at its pinned checkout. Everything outside the block is hand-written.
public enum RootManifest {
    /// The block's first line.
    public static let begin = "// BEGIN componentctl: components"
    /// The block's last line.
    public static let end = "// END componentctl: components"

    /// `text` with every `.package(path:)` in the block pointing where the pins say, written as componentctl writes
    /// it, and every other line of code in the block dropped (``foreignLines(in:workspace:)``); throws without the block.
    public static func regenerate(_ text: String, workspace: Workspace, checkouts: [String: String]) throws -> String {
        let index = ComponentPaths(workspace)
        let regenerated = GeneratedBlock.manifest.rewriting(text) { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            // The first and last pieces are the rest of the marker lines.
            return lines.enumerated().compactMap { number, line in
                number == 0 || number == lines.count - 1 ? String(line) : rewrite(String(line), index: index, checkouts: checkouts)
            }.joined(separator: "\n")
        }
        guard let regenerated else {
            throw ToolError(
                "Package.swift \(GeneratedBlock.manifest.absence(in: text)); the lines from '\(begin)' to '\(end)' hold the component "
                    + "packages componentctl writes: put them back around them.", status: .usage)
        }
        return regenerated
    }

    /// The lines of the block componentctl did not write and `sync` drops: code other than the list of component
    /// packages, and packages that are no component of components.yaml.
    public static func foreignLines(in text: String, workspace: Workspace) -> [String] {
        guard let range = GeneratedBlock.manifest.contents(in: text) else { return [] }
        let index = ComponentPaths(workspace)
        let lines = text[range].split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast()
        return lines.map(String.init).filter { rewrite($0, index: index, checkouts: [:]) == nil }
    }

    /// The line as componentctl writes it, or nil for a line that is not its own.
    private static func rewrite(_ line: String, index: ComponentPaths, checkouts: [String: String]) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed == "]" { return line }
        if let name = ["Package", "Target"].lazy.compactMap({ trimmed.removingAffixes("let ", ": [\($0).Dependency] = [") }).first,
            !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        {
            return line
        }
        if let product = trimmed.removingAffixes(".product(name: \"", "\"),"), let separator = product.range(of: "\", package: \""),
            index.isComponentFolder(String(product[separator.upperBound...]))
        {
            return line
        }
        guard let path = trimmed.removingAffixes(".package(path: \"", "\"),"), !path.contains("\""), let component = index.component(at: path) else {
            return nil
        }
        return "    .package(path: \(swiftString(checkouts[component.name] ?? component.path))),"
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
    /// The text between `prefix` and `suffix` when it starts and ends with them.
    fileprivate func removingAffixes(_ prefix: String, _ suffix: String) -> String? {
        guard hasPrefix(prefix), hasSuffix(suffix), count >= prefix.count + suffix.count else { return nil }
        return String(dropFirst(prefix.count).dropLast(suffix.count))
    }
}
