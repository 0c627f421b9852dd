/// `componentctl status`: every component's layer, version, pin, commits since its last release, and local changes.
public enum StatusService {
    /// One row of the table.
    public struct Row: Codable, Sendable, Equatable {
        public var name: String
        public var layer: String
        public var version: String?
        public var pin: String?
        /// The last release tagged in this clone, or nil when it has none (then `version` is only recorded, not released).
        public var released: String?
        /// Commits since the last release that touch the component's folder; all of them when never released.
        public var commitsSinceRelease: Int
        /// Files under the folder with uncommitted changes, untracked ones included.
        public var changedFiles: Int
        /// The apps that link it.
        public var apps: [String] = []
    }

    /// The rows, in components.yaml order; with `app`, only the components that app links.
    public static func rows(_ context: VersionedWorkspace, app: String? = nil) throws -> [Row] {
        let repository = context.repository
        let head = try repository.headCommit()
        let changed = try repository.changedFiles(under: context.prefix)
        let linked = AppPlan.componentsOfEveryApp(try WorkspaceAnalysis.analyze(context.workspace, readSources: false))
        try app.map(context.workspace.checkAppExists)
        let only = app.map { linked[$0] ?? [] }
        let apps = context.workspace.allAppNames
        return try context.workspace.components.filter { only?.contains($0.name) ?? true }.map { component in
            let path = context.repositoryPath(of: component)
            let last = try context.releases(of: component).first
            let commits = try repository.commitCount(touching: path, from: head, notReachableFrom: last?.resolved.commit)
            return Row(
                name: component.name, layer: component.layer, version: component.version, pin: component.pin,
                released: last?.version.description, commitsSinceRelease: commits, changedFiles: changed.filter { $0.hasPrefix(path + "/") }.count,
                apps: apps.filter { linked[$0]?.contains(component.name) == true })
        }
    }

    /// The rows as a table or JSON. A component with no release tag says so in both columns, and a note
    /// under the table explains it once, as `versions` does.
    public static func render(_ rows: [Row], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        let table =
            [["NAME", "LAYER", "VERSION", "PIN", "SINCE RELEASE", "LOCAL CHANGES", "APPS"]]
            + rows.map { row in
                [
                    row.name, row.layer, row.released == nil ? (row.version ?? "-") + " (no release)" : row.version ?? "-", row.pin ?? "-",
                    row.released == nil ? "never released" : "\(row.commitsSinceRelease) commit\(row.commitsSinceRelease == 1 ? "" : "s")",
                    row.changedFiles == 0 ? "clean" : "\(row.changedFiles) file\(row.changedFiles == 1 ? "" : "s")",
                    row.apps.isEmpty ? "-" : row.apps.joined(separator: ","),
                ]
            }
        let unreleased = rows.filter { $0.released == nil }.count
        guard unreleased > 0 else { return TextTable.render(table) }
        return TextTable.render(table) + "\n\(unreleased) of \(rows.count) components have no release tag in this clone: the version "
            + "components.yaml records is the number a first release follows. Make one with 'componentctl release NAME VERSION', "
            + "or fetch the tags if they were released elsewhere (git fetch --tags).\n"
    }
}
