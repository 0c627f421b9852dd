/// `componentctl affected`: the components a change touched, plus everything that depends on them.
public enum AffectedService {
    /// One affected component; JSON is ready for a CI matrix.
    public struct Row: Codable, Sendable, Equatable {
        /// The component's name, or `app` for the integrated App.
        public var name: String
        /// Its folder (`.` for the App).
        public var path: String
        /// `changed` or `dependent`.
        public var reason: String
    }

    /// The affected components between `base` and `head`, with `uncommitted` changes when asked.
    public static func rows(_ context: VersionedWorkspace, base: String, head: String?, uncommitted: Bool) throws -> [Row] {
        let repository = context.repository
        let baseCommit = try repository.resolveCommit(base)
        let headCommit = try repository.resolveCommit(head ?? "HEAD")
        let components = context.workspace.components
        let appPaths = ["Package.swift", "App", "Tests"].map(context.repositoryPath)
        let changedPaths = try repository.changedPaths(components.map(context.repositoryPath(of:)) + appPaths, between: baseCommit, and: headCommit)
        var changed = Set(components.filter { changedPaths.contains(context.repositoryPath(of: $0)) }.map(\.name))
        var appChanged = !changedPaths.isDisjoint(with: appPaths)
        if uncommitted {
            for file in try repository.changedFiles(under: context.prefix) {
                let relative = context.prefix.isEmpty ? file : String(file.dropFirst(context.prefix.count + 1))
                if let owner = components.first(where: { relative.hasPrefix($0.path + "/") }) {
                    changed.insert(owner.name)
                } else if relative == "Package.swift" || relative.hasPrefix("App/") || relative.hasPrefix("Tests/") {
                    appChanged = true
                }
            }
        }
        let analysis = WorkspaceAnalysis.analyze(context.workspace, readSources: false)
        let dependents = DependencyGraph(analysis: analysis).dependents(of: changed)
        var rows = components.compactMap { component -> Row? in
            if changed.contains(component.name) { return Row(name: component.name, path: component.path, reason: "changed") }
            if dependents.contains(component.name) { return Row(name: component.name, path: component.path, reason: "dependent") }
            return nil
        }
        if appChanged || !rows.isEmpty {
            rows.append(Row(name: "app", path: ".", reason: appChanged ? "changed" : "dependent"))
        }
        return rows
    }

    /// The rows as text (a table) or JSON.
    public static func render(_ rows: [Row], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        guard !rows.isEmpty else { return "Nothing is affected.\n" }
        return TextTable.render([["NAME", "REASON", "PATH"]] + rows.map { [$0.name, $0.reason, $0.path] })
    }
}
