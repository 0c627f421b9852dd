import Foundation

/// `componentctl remove`: takes components out of the workspace (their entries in components.yaml and
/// its apps, their lines in Package.swift's generated blocks, the apps' generated sources, and their folders), refusing
/// while anything else still uses them, and never deleting a file that git could not give back.
public enum RemoveService {
    /// Removes `names` together; `keepFiles` leaves their folders on disk, only unregistered.
    public static func remove(_ context: VersionedWorkspace, names: [String], keepFiles: Bool, faultPoint: (String) -> Void = { _ in }) throws -> CommandResult
    {
        let workspace = context.workspace
        var seen = Set<String>()
        let names = names.filter { seen.insert($0).inserted }
        let removed = try names.map { name in
            guard let component = workspace.component(named: name) else { throw workspace.unknownComponent(name) }
            if component.pin != nil {
                throw ToolError("'\(name)' is pinned to \(component.pin ?? ""); run 'componentctl unpin \(name)' first.", status: .usage)
            }
            return component
        }
        let removedNames = Set(removed.map(\.name))
        guard removedNames.count < workspace.components.count else {
            throw ToolError("A workspace keeps at least one component; remove the others first.", status: .usage)
        }
        let analysis = try WorkspaceAnalysis.analyze(workspace)
        try refuseDependents(of: removed, in: analysis)
        let modules = Set(removed.flatMap { analysis.packages[$0.name]?.modules ?? [] })
        try refuseImports(of: modules, outside: removed, apps: workspace.apps, root: workspace.root)
        try refuseRootManifestUses(of: removed, root: workspace.root)
        if !keepFiles { try refuseUncommittedFiles(in: removed, context: context) }

        var transaction = WorkspaceTransaction(root: workspace.root, summary: "remove \(names.joined(separator: " "))")
        var bytes = workspace.fileBytes
        let apps = try AppsFileEditor.removalRanges(of: removedNames, in: workspace)
        let start = ComponentsFileEditor.startRange(openingARouteOf: removed, in: analysis)
        let ranges =
            try removed.map { try ComponentsFileEditor.entryRange(of: $0.name, in: workspace) }
            + ComponentsFileEditor.pluginEntryRanges(of: removedNames, in: workspace) + apps.ranges + (start.map { [$0] } ?? [])
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) { bytes.removeSubrange(range) }
        transaction.write(WorkspaceLoader.fileName, bytes)
        var touched = ["components.yaml"]
        if let manifest = try? String(contentsOf: workspace.root.appendingPathComponent("Package.swift"), encoding: .utf8) {
            let edited = GeneratedBlock.manifest.removingLines(from: manifest) { line in
                removed.contains { line.contains(".package(path: \"\($0.path)\")") || line.contains("package: \"\($0.folderName)\")") }
            }
            if edited != manifest {
                transaction.write("Package.swift", Array(edited.utf8))
                touched.append("Package.swift")
            }
        }
        for path in try AppWiring.update(&transaction, yaml: bytes, root: workspace.root) where !touched.contains(path) { touched.append(path) }
        if !keepFiles {
            for component in removed where FileStatus.isRealFolder(workspace.root.appendingPathComponent(component.path)) {
                transaction.remove(committedFolder: component.path)
            }
        }
        try transaction.commit(repository: context.repository, faultPoint: faultPoint)

        let list = removed.map(\.name).joined(separator: ", ")
        let files =
            keepFiles
            ? " Their folders are still on disk: \(removed.map(\.path).joined(separator: ", "))."
            : " Their folders are deleted; git has them: 'git checkout HEAD -- \(removed.map(\.path).joined(separator: " "))' brings them back before you commit."
        let left =
            apps.apps.isEmpty
            ? ""
            : " \(apps.apps.count == 1 ? "The app" : "The apps") \(apps.apps.joined(separator: ", ")) no longer \(apps.apps.count == 1 ? "contains" : "contain") \(removed.count == 1 ? "it" : "them")."
        let leftOut =
            apps.leftOut.isEmpty
            ? ""
            : " The `missing:` of \(apps.leftOut.joined(separator: ", ")) named \(removed.count == 1 ? "it" : "them") and no longer does: "
                + "such links now say \"Page not found\"."
        let started =
            start == nil
            ? "" : " workspace.start named its route \(workspace.start ?? ""): the apps now start at a list of their routes until you name another start."
        return CommandResult(output: "Removed \(list) (edited \(touched.joined(separator: ", "))).\(left)\(leftOut)\(started)\(files)\n")
    }

    /// Refuses when a component that stays depends on one that goes, or extends a feature that goes.
    private static func refuseDependents(of removed: [Component], in analysis: WorkspaceAnalysis) throws {
        let names = Set(removed.map(\.name))
        for feature in removed {
            let plugins = analysis.workspace.components.filter { plugin in
                plugin.kind == .plugin && !names.contains(plugin.name) && analysis.workspace.host(of: plugin)?.name == feature.name
            }.map(\.name).sorted()
            guard plugins.isEmpty else {
                throw ToolError(
                    "Cannot remove '\(feature.name)': the plugins \(plugins.joined(separator: ", ")) extend its pages, and no app could hold them without it. "
                        + "Remove them together: componentctl remove \((removed.map(\.name) + plugins).joined(separator: " ")).", status: .usage)
            }
        }
        for component in removed {
            let users = analysis.packages.values.filter { !names.contains($0.component.name) && $0.edges.contains { $0.to == component.name } }
                .map(\.component.name).sorted()
            guard users.isEmpty else {
                throw ToolError(
                    "Cannot remove '\(component.name)': \(users.joined(separator: ", ")) \(users.count == 1 ? "depends" : "depend") on it. "
                        + "Remove \(users.count == 1 ? "that dependency" : "those dependencies") first, or remove them together: "
                        + "componentctl remove \((removed.map(\.name) + users).joined(separator: " ")).", status: .usage)
            }
        }
    }

    /// Refuses when a Swift file that stays imports a module that goes, except the apps' generated sources
    /// (written anew without it). Folders of their own workspace (a components.yaml inside) are skipped.
    private static func refuseImports(of modules: Set<String>, outside removed: [Component], apps: [AppDeclaration], root: URL) throws {
        let skipped = Set(removed.map(\.path))
        var sites: [String] = []
        for path in SwiftFiles.under(root, skipping: skipped.union(apps.map(\.folder))) {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else { continue }
            let imports = data.withUnsafeBytes { ImportScanner.scan($0.bindMemory(to: UInt8.self)).imports }
            for declaration in imports where modules.contains(declaration.module) {
                sites.append("\(path):\(declaration.line): import \(declaration.module)")
            }
        }
        guard sites.isEmpty else {
            let shown = sites.prefix(10).map { "  \($0)\n" }.joined() + (sites.count > 10 ? "  and \(sites.count - 10) more\n" : "")
            throw ToolError(
                "Cannot remove \(removed.map { "'\($0.name)'" }.joined(separator: ", ")): these files still import it:\n\(shown)"
                    + "Take those uses out, then run the command again.", status: .usage)
        }
    }

    /// Refuses when the root Package.swift names a component that goes outside its generated block (which
    /// is edited with the component): the App would no longer build.
    private static func refuseRootManifestUses(of removed: [Component], root: URL) throws {
        guard let text = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8) else { return }
        let generated = [GeneratedBlock.manifest, AppManifest.block].compactMap { $0.lineNumbers(in: text) }
        var sites: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !generated.contains(where: { $0.contains(index + 1) }) {
            for component in removed where line.contains("package: \"\(component.folderName)\"") || line.contains("\"\(component.path)\"") {
                sites.append("Package.swift:\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        guard sites.isEmpty else {
            throw ToolError(
                "Cannot remove \(removed.map { "'\($0.name)'" }.joined(separator: ", ")): the root package uses it outside its generated block:\n"
                    + sites.map { "  \($0)\n" }.joined() + "Take those uses out, then run the command again.", status: .usage)
        }
    }

    /// Refuses when a folder to delete holds anything git could not restore: changes, untracked or ignored
    /// files, except what SwiftPM makes anew (build folders, `.swiftpm/`, a `Package.resolved` git does not track).
    private static func refuseUncommittedFiles(in removed: [Component], context: VersionedWorkspace) throws {
        let prefix = context.prefix.isEmpty ? "" : context.prefix + "/"
        var files: [String] = []
        for component in removed {
            files += try context.repository.changedFiles(under: prefix + component.path, ignored: true).filter { path in
                try !isMadeBySwiftPM(path, in: prefix + component.path, repository: context.repository)
            }
        }
        guard files.isEmpty else {
            throw ToolError(
                "Not removing: these files are not committed, and deleting them would lose them:\n"
                    + files.prefix(10).map { "  \($0)\n" }.joined() + (files.count > 10 ? "  and \(files.count - 10) more\n" : "")
                    + "Commit or move them, or keep the folders with --keep-files.", status: .usage)
        }
    }

    /// Whether `path` is something SwiftPM writes and writes again at the top of the package folder `package`:
    /// `.build/`, `.swiftpm/`, or a `Package.resolved` that git does not track. A folder merely named like them
    /// (`.build-notes/`, or a `.build/` deeper in the sources) is the user's.
    static func isMadeBySwiftPM(_ path: String, in package: String, repository: GitRepository) throws -> Bool {
        guard path.hasPrefix(package + "/") else { return false }
        let inside = path.dropFirst(package.count + 1)
        let first = inside.split(separator: "/").first.map(String.init) ?? ""
        if first == ".build" || first == ".swiftpm" { return true }
        guard inside == "Package.resolved" else { return false }
        return try repository.isUntracked(path)
    }
}
