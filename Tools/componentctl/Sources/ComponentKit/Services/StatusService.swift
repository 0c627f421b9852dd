/// `componentctl status`: every component's layer, version, pin, commits since its last release, and local changes.
public enum StatusService {
    /// One row of the table.
    public struct Row: Codable, Sendable, Equatable {
        public var name: String
        public var layer: String
        public var version: String?
        public var pin: String?
        /// Commits since the last release that touch the component's folder; all of them when never released.
        public var commitsSinceRelease: Int
        /// Files under the folder with uncommitted changes, untracked ones included.
        public var changedFiles: Int
    }

    /// The rows, in components.yaml order.
    public static func rows(_ context: VersionedWorkspace) throws -> [Row] {
        let repository = context.repository
        let head = try repository.headCommit()
        let changed = try repository.changedFiles(under: context.prefix)
        return try context.workspace.components.map { component in
            let path = context.repositoryPath(of: component)
            let last = try context.releases(of: component).first
            let commits = try repository.commitCount(touching: path, from: head, notReachableFrom: last?.resolved.commit)
            return Row(name: component.name, layer: component.layer, version: component.version, pin: component.pin,
                       commitsSinceRelease: commits, changedFiles: changed.filter { $0.hasPrefix(path + "/") }.count)
        }
    }

    /// The rows as a table or JSON.
    public static func render(_ rows: [Row], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        let table = [["NAME", "LAYER", "VERSION", "PIN", "UNRELEASED COMMITS", "LOCAL CHANGES"]] + rows.map { row in
            [row.name, row.layer, row.version ?? "-", row.pin ?? "-", String(row.commitsSinceRelease),
             row.changedFiles == 0 ? "clean" : "\(row.changedFiles) file\(row.changedFiles == 1 ? "" : "s")"]
        }
        return TextTable.render(table)
    }
}
