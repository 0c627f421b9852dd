import Foundation

/// A component's released version: its tag and what the tag names.
public struct Release: Sendable, Equatable {
    /// The version.
    public var version: SemanticVersion
    /// The tag, `<component>@<version>`.
    public var tag: String
    /// The commit and date.
    public var resolved: GitRepository.ResolvedTag
}

/// The git side of a workspace: the repository and where the workspace sits in it.
public struct VersionedWorkspace {
    /// The workspace.
    public var workspace: Workspace
    /// Its repository.
    public var repository: GitRepository
    /// The workspace root relative to the repository's working tree ("" when they are the same).
    public var prefix: String

    /// Opens the repository holding `workspace`.
    public init(_ workspace: Workspace) throws {
        self.workspace = workspace
        repository = try GitRepository(containing: workspace.root)
        guard let prefix = repository.relativePath(of: workspace.root) else {
            throw ToolError("The workspace is not inside its git repository's working tree.", exitCode: 3)
        }
        self.prefix = prefix
    }

    /// The repository path of `component`'s folder.
    public func repositoryPath(of component: Component) -> String {
        prefix.isEmpty ? component.path : prefix + "/" + component.path
    }

    /// The repository path of a workspace-relative path.
    public func repositoryPath(_ path: String) -> String { prefix.isEmpty ? path : prefix + "/" + path }

    /// The component called `name`, or an error suggesting the closest name.
    public func component(_ name: String) throws -> Component {
        guard let component = workspace.component(named: name) else { throw workspace.unknownComponent(name) }
        return component
    }

    /// Every release of `component`, newest first (semantic-version order; tags that are no version are ignored).
    public func releases(of component: Component) throws -> [Release] {
        let prefix = component.name + "@"
        return try repository.tagNames(prefix: prefix).compactMap { tag in
            let text = String(tag.dropFirst(prefix.count))
            guard !text.contains("/"), let version = SemanticVersion(text), let resolved = try repository.resolveTag(tag) else { return nil }
            return Release(version: version, tag: tag, resolved: resolved)
        }.sorted { $0.version > $1.version }
    }

    /// Parses `text` as a version, or fails with exit 2.
    public static func version(_ text: String) throws -> SemanticVersion {
        guard let version = SemanticVersion(text) else {
            throw ToolError("'\(text)' is not a semantic version; write it like 1.4.0 (or 2.0.0-beta.1).", exitCode: 2)
        }
        return version
    }
}

/// `componentctl versions` and `componentctl release`.
public enum ReleaseService {
    /// One row of `versions --format json`.
    public struct Row: Codable, Equatable, Sendable {
        public var version: String
        public var tag: String
        public var commit: String
        public var date: String
    }

    /// Released versions of `name`, newest first.
    public static func versions(_ context: VersionedWorkspace, name: String, json: Bool) throws -> CommandResult {
        let component = try context.component(name)
        let formatter = ISO8601DateFormatter()
        let rows = try context.releases(of: component).map {
            Row(version: $0.version.description, tag: $0.tag, commit: $0.resolved.commit.hex, date: formatter.string(from: $0.resolved.date))
        }
        if json { return CommandResult(output: try JSONOutput.string(rows)) }
        guard !rows.isEmpty else {
            return CommandResult(output: "'\(name)' has no release yet. Make one with 'componentctl release \(name) 1.0.0'.\n")
        }
        let table = [["VERSION", "COMMIT", "DATE"]] + rows.map { [$0.version, String($0.commit.prefix(10)), $0.date] }
        return CommandResult(output: TextTable.render(table))
    }

    /// Tags HEAD as `name@version` and writes `version:` in components.yaml, all or nothing.
    public static func release(
        _ context: VersionedWorkspace, name: String, version text: String, message: String?, faultPoint: (String) -> Void = { _ in }
    ) throws -> CommandResult {
        let component = try context.component(name)
        let version = try VersionedWorkspace.version(text)
        let releases = try context.releases(of: component)
        if let last = releases.first, version <= last.version {
            throw ToolError("Version \(version) of '\(name)' must be greater than its last release, \(last.version).", exitCode: 3)
        }
        let path = context.repositoryPath(of: component)
        let changed = try context.repository.changedFiles(under: path)
        guard changed.isEmpty else {
            throw ToolError("'\(name)' has uncommitted changes; commit or stash them before releasing:\n"
                + changed.prefix(10).map { "  \($0)" }.joined(separator: "\n"), exitCode: 3)
        }
        let head = try context.repository.headCommit()
        guard try context.repository.tree(of: head, path: path) != nil else {
            throw ToolError("'\(component.path)' is not in the last commit; commit the component before releasing it.", exitCode: 3)
        }
        let tag = "\(name)@\(version)"
        var transaction = WorkspaceTransaction(root: context.workspace.root)
        transaction.createTag(tag, commit: head, message: message ?? "Release \(name) \(version)")
        transaction.write(WorkspaceLoader.fileName, try ComponentsFileEditor.setting("version", to: version.description, of: name, in: context.workspace))
        try transaction.commit(repository: context.repository, faultPoint: faultPoint)
        return CommandResult(output: "Released \(name) \(version): tag \(tag) on \(head.short). components.yaml now says version: \(version); commit it.\n")
    }
}
