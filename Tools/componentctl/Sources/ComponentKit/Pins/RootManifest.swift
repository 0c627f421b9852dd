/// The generated block of the integrated Package.swift: the component packages the App uses, each
/// at its live folder or at its pinned checkout. Everything outside the block is hand-written.
public enum RootManifest {
    /// The block's first line.
    public static let begin = "// BEGIN componentctl: components"
    /// The block's last line.
    public static let end = "// END componentctl: components"

    /// `text` with every `.package(path:)` in the block pointing where the pins say; throws when there is no block.
    public static func regenerate(_ text: String, workspace: Workspace, checkouts: [String: String]) throws -> String {
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            throw ToolError("Package.swift has no '\(begin)' ... '\(end)' block; add one around the component dependencies.", exitCode: 2)
        }
        let block = text[start.upperBound..<stop.lowerBound]
        var lines: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(try rewrite(String(line), workspace: workspace, checkouts: checkouts))
        }
        return String(text[..<start.upperBound]) + lines.joined(separator: "\n") + String(text[stop.lowerBound...])
    }

    private static func rewrite(_ line: String, workspace: Workspace, checkouts: [String: String]) throws -> String {
        guard let call = line.range(of: ".package(path: \""), let close = line.range(of: "\")", range: call.upperBound..<line.endIndex) else {
            return line
        }
        let path = String(line[call.upperBound..<close.lowerBound])
        guard let component = component(at: path, in: workspace) else {
            throw ToolError("The generated block of Package.swift names '\(path)', which is no component in components.yaml.", exitCode: 2)
        }
        let target = checkouts[component.name] ?? component.path
        return line.replacingCharacters(in: call.upperBound..<close.lowerBound, with: target)
    }

    /// The component a block path names: its live folder, or one of its pinned checkouts.
    static func component(at path: String, in workspace: Workspace) -> Component? {
        if let live = workspace.components.first(where: { $0.path == path }) { return live }
        let parts = path.split(separator: "/")
        guard let pin = parts.first(where: { $0.hasPrefix(".pin-") }) else { return nil }
        return workspace.components.first { pin.hasPrefix(".pin-\($0.name)-") && $0.folderName == parts.last.map(String.init) }
    }

}
