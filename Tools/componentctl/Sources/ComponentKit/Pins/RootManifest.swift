/// The generated block of the integrated Package.swift: the component packages the App uses, each
/// at its live folder or at its pinned checkout. Everything outside the block is hand-written.
public enum RootManifest {
    /// The block's first line.
    public static let begin = "// BEGIN componentctl: components"
    /// The block's last line.
    public static let end = "// END componentctl: components"

    /// `text` with every `.package(path:)` in the block pointing where the pins say; throws when there is no block.
    public static func regenerate(_ text: String, workspace: Workspace, checkouts: [String: String]) throws -> String {
        let index = ComponentPaths(workspace)
        let regenerated = try GeneratedBlock.manifest.rewriting(text) { block in
            try block.split(separator: "\n", omittingEmptySubsequences: false).map { try rewrite(String($0), index: index, checkouts: checkouts) }
                .joined(separator: "\n")
        }
        guard let regenerated else {
            throw ToolError("Package.swift has no '\(begin)' ... '\(end)' block; add one around the component dependencies.", status: .usage)
        }
        return regenerated
    }

    private static func rewrite(_ line: String, index: ComponentPaths, checkouts: [String: String]) throws -> String {
        guard let call = line.range(of: ".package(path: \""), let close = line.range(of: "\")", range: call.upperBound..<line.endIndex) else {
            return line
        }
        let path = String(line[call.upperBound..<close.lowerBound])
        guard let component = index.component(at: path) else {
            throw ToolError("The generated block of Package.swift names '\(path)', which is no component in components.yaml.", status: .usage)
        }
        let target = checkouts[component.name] ?? component.path
        return line.replacingCharacters(in: call.upperBound..<close.lowerBound, with: target)
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

    /// The component whose live folder, or pinned checkout (`.pin-<name>-<version>/…/<Folder>`), is `path`.
    func component(at path: String) -> Component? {
        if let live = byPath[path] { return live }
        let parts = path.split(separator: "/")
        guard let pin = parts.first(where: { $0.hasPrefix(".pin-") }), let folder = parts.last else { return nil }
        return byFolderName[String(folder)]?.first { pin.hasPrefix(".pin-\($0.name)-") }
    }
}
