import Foundation

/// `componentctl new NAME --plugin POINT`: a plugin component from the template its extension point's
/// interface ships (`<interface>/PluginTemplates/<point>/`), registered in components.yaml, listed last
/// under the point in `plugins:`, and wired into the App (Package.swift's block, GeneratedWiring.swift).
public enum PluginScaffold {
    /// The placeholders a template's paths and text may use.
    static let placeholders = ["__Name__", "__id__", "__root__", "__path__"]

    /// Creates the plugin `name` extending `pointArgument` (`product-interface/sections`, or `product/sections`
    /// naming the feature).
    public static func create(
        _ workspace: Workspace, name: String, point pointArgument: String, apps: [String] = [], faultPoint: (String) -> Void = { _ in }
    ) throws -> CommandResult {
        try ScaffoldService.checkName(name)
        _ = try workspace.apps(namedByOptions: apps)
        let catalog = PluginCatalog(try WorkspaceAnalysis.analyze(workspace))
        let point = try resolve(pointArgument, in: workspace, catalog: catalog)
        guard let interface = workspace.component(named: point.component) else { throw workspace.unknownComponent(point.component) }
        let pointName = String(point.id.split(separator: "/").last ?? "")
        let templates = workspace.folder(of: interface).appendingPathComponent("PluginTemplates/\(pointName)")
        guard FileStatus.isRealFolder(templates) else {
            throw ToolError(
                "'\(point.id)' has no plugin template: add \(interface.path)/PluginTemplates/\(pointName)/ (the files of a new plugin, "
                    + "with \(placeholders.joined(separator: ", ")) where the name, id, path to the workspace root and the plugin's path go; "
                    + "see docs/plugins.md).", status: .usage)
        }
        let id = kebabCase(name)
        let folder = ScaffoldService.folder(for: workspace.rules.layers[0], kind: .plugin, name: name, in: workspace)
        var package = ScaffoldService.Package(
            name: id, folder: folder, layer: workspace.rules.layers[0], kind: .plugin, interface: nil, extends: point.id, files: [:])
        try ScaffoldService.refuseCollisions([package], workspace: workspace)
        try ScaffoldService.refuseModuleClashes([name, name + "Demo", name + "Tests"], workspace: workspace)
        package.files = try render(templates, values: [name, id, ScaffoldService.relative("", from: folder), folder])

        // components.yaml: the component after the last one, the entry last under its point.
        let insertions = [try ScaffoldService.componentsInsertion([package], in: workspace), try declarationInsertion(id, point: point.id, in: workspace)]
        var bytes = workspace.fileBytes
        for (offset, text) in insertions.sorted(by: { $0.offset > $1.offset }) { bytes.insert(contentsOf: Array(text.utf8), at: offset) }
        bytes = try ScaffoldService.checkedEdit(try AppsFileEditor.adding(id, to: apps, in: bytes), of: workspace, apps: apps)
        let definitions = package.files.filter { $0.key.hasSuffix(".swift") && $0.key.hasPrefix("Sources/\(name)/") }.flatMap { file in
            PluginScanner.scan(Array(file.value.utf8)).definitions.map {
                PluginCatalog.Definition(
                    component: id, typeName: $0.typeName, module: name, id: $0.id, settings: $0.settings, file: "\(folder)/\(file.key)", line: $0.line,
                    column: $0.column)
            }
        }

        var transaction = WorkspaceTransaction(root: workspace.root, summary: "new \(name) --plugin \(point.id)")
        let staged = try WorkspaceTransaction.stagingFolder(root: workspace.root).appendingPathComponent(name)
        for (path, text) in package.files {
            let file = staged.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        transaction.add(folder: staged, at: folder)
        transaction.write(WorkspaceLoader.fileName, bytes)
        transaction.write("Package.swift", try ScaffoldService.wiringManifest(workspace, packages: [(interface.path, interface.folderName), (folder, name)]))
        var facts = AppWiring.Staged(definitions: [id: definitions])
        facts.manifests[id] = (folder, Array((package.files["Package.swift"] ?? "").utf8))
        facts.folders[id] = staged
        try AppWiring.update(&transaction, yaml: bytes, root: workspace.root, adding: facts)
        try transaction.commit(repository: nil, faultPoint: faultPoint)
        let wiredText = apps.isEmpty ? "" : " and added to the app\(apps.count == 1 ? "" : "s") \(apps.joined(separator: ", "))"
        return CommandResult(
            output: "Created plugin \(id) at \(folder), extending \(point.id); listed last under plugins.\(point.id) in components.yaml"
                + "\(wiredText). Try: swift test --package-path \(folder)\n")
    }

    /// The declared point `argument` names: `<interface>/<point>`, or `<feature>/<point>` for the feature's interface.
    static func resolve(_ argument: String, in workspace: Workspace, catalog: PluginCatalog) throws -> PluginCatalog.Point {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let known = catalog.points.map(\.id)
        let list = known.isEmpty ? "no interface declares an extension point yet" : "the points are \(known.joined(separator: ", "))"
        guard parts.count == 2, let named = workspace.component(named: parts[0]) else {
            let hint = Suggestion.closest(to: argument, in: known).map { "Did you mean '\($0)'? " } ?? ""
            throw ToolError("Unknown extension point '\(argument)'. \(hint)Write it as <interface or feature>/<point>; \(list).", status: .usage)
        }
        let interface = named.kind == .interface ? named.name : named.interface ?? named.name
        guard let point = catalog.point("\(interface)/\(parts[1])") else {
            let hint = Suggestion.closest(to: "\(interface)/\(parts[1])", in: known).map { "Did you mean '\($0)'? " } ?? ""
            throw ToolError(
                "No interface declares the extension point '\(interface)/\(parts[1])'. \(hint)\(list.prefix(1).uppercased() + list.dropFirst()).",
                status: .usage)
        }
        return point
    }

    /// The template folder's `.template` files, with the placeholders replaced and `.template` dropped from
    /// their names (other files there are notes for people and tools, not part of a new plugin).
    private static func render(_ folder: URL, values: [String]) throws -> [String: String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [:] }
        var files: [String: String] = [:]
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".template"), !FileStatus.isRealFolder(folder.appendingPathComponent(relative)) else { continue }
            guard let text = try? String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8) else {
                throw ToolError("The plugin template file \(folder.path)/\(relative) is not UTF-8 text.", status: .usage)
            }
            var path = String(relative.dropLast(".template".count))
            var content = text
            for (placeholder, value) in zip(placeholders, values) {
                path = path.replacingOccurrences(of: placeholder, with: value)
                content = content.replacingOccurrences(of: placeholder, with: value)
            }
            files[path] = content
        }
        return files
    }

    /// Where `- plugin: ID` goes under `plugins.<point>` (the section and the key are added when missing).
    static func declarationInsertion(_ id: String, point: String, in workspace: Workspace) throws -> (offset: Int, text: String) {
        let bytes = workspace.fileBytes
        func lineStart(_ offset: Int) -> Int { bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0 }
        func lineEnd(after offset: Int) -> (Int, String) {
            bytes[offset...].firstIndex(of: UInt8(ascii: "\n")).map { ($0 + 1, "") } ?? (bytes.count, "\n")
        }
        guard case .mapping(let top, _, _) = workspace.document else { throw ComponentsFileEditor.refusal("the file is not a mapping") }
        guard let section = top.first(where: { $0.key.value == "plugins" }) else {
            let (offset, newline) = bytes.last == UInt8(ascii: "\n") || bytes.isEmpty ? (bytes.count, "") : (bytes.count, "\n")
            return (offset, "\(newline)plugins:\n  \(point):\n    - plugin: \(id)\n")
        }
        if section.value.isNull {
            // `plugins:` with nothing under it: the point goes on the lines after the key.
            let (offset, newline) = lineEnd(after: section.key.end.offset)
            return (offset, "\(newline)  \(point):\n    - plugin: \(id)\n")
        }
        guard case .mapping(let points, _, false) = section.value else {
            throw ComponentsFileEditor.refusal("'plugins:' is not a block mapping to add '- plugin: \(id)' under '\(point)' to")
        }
        guard let entry = points.first(where: { $0.key.value == point }) else {
            let indent = points.first.map { String(repeating: " ", count: $0.key.start.column - 1) } ?? "  "
            let after = points.last.map { ComponentsFileEditor.end(of: $0.value, in: bytes) } ?? section.key.end.offset
            let (offset, newline) = lineEnd(after: after)
            return (offset, "\(newline)\(indent)\(point):\n\(indent)  - plugin: \(id)\n")
        }
        guard case .sequence(let items, _, false) = entry.value, let last = items.last else {
            throw ComponentsFileEditor.refusal("plugins.\(point) is not a block list to add '- plugin: \(id)' to")
        }
        // The new item copies the last item's lead ("    - ").
        let lead = String(decoding: bytes[lineStart(last.start.offset)..<last.start.offset], as: UTF8.self)
        let (offset, newline) = lineEnd(after: ComponentsFileEditor.end(of: last, in: bytes))
        return (offset, "\(newline)\(lead)plugin: \(id)\n")
    }
}
