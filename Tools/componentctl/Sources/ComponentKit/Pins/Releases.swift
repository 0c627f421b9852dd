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
            throw ToolError("The workspace is not inside its git repository's working tree.", status: .environment)
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

    /// Every release of `component`, newest first (semantic-version order), and a warning for each tag of
    /// its prefix that is no release (a name that is not a version, a tag naming a tree or a blob).
    public func scanReleases(of component: Component) throws -> (releases: [Release], warnings: [String]) {
        let prefix = component.name + "@"
        var warnings: [String] = []
        let releases = try repository.tagNames(prefix: prefix).sorted().compactMap { tag -> Release? in
            let text = String(tag.dropFirst(prefix.count))
            guard let version = SemanticVersion(text), version.description == text else {
                warnings.append("warning: skipped the tag '\(tag)': '\(text)' is not a semantic version, so it is no release of '\(component.name)'.\n")
                return nil
            }
            guard let resolved = try? repository.resolveTag(tag) else {
                warnings.append(
                    "warning: skipped the tag '\(tag)': it names a \(repository.kindOfTagTarget(tag) ?? "missing object"), not a commit. "
                        + "Inspect it with 'git cat-file -p \(tag)'; delete it with 'git tag -d \(tag)' if it is a mistake.\n")
                return nil
            }
            return Release(version: version, tag: tag, resolved: resolved)
        }
        return (releases.sorted { $0.version > $1.version }, warnings)
    }

    /// Every release of `component`, newest first, skipping tags that are no release.
    public func releases(of component: Component) throws -> [Release] { try scanReleases(of: component).releases }

    /// What to do when this clone lacks a release's tag: fetch the tags, saying so when the clone is shallow.
    public var fetchTagsAdvice: String {
        repository.isShallow
            ? "This is a shallow clone, which usually has no release tags: fetch them with 'git fetch --tags --unshallow'."
            : "If it was released in another clone, fetch the tags: git fetch --tags."
    }

    /// Parses `text` as a version, or fails with exit 2.
    public static func version(_ text: String) throws -> SemanticVersion {
        guard let version = SemanticVersion(text) else {
            throw ToolError("'\(text)' is not a semantic version; write it like 1.4.0 (or 2.0.0-beta.1).", status: .usage)
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
        let scan = try context.scanReleases(of: component)
        let rows = scan.releases.map {
            Row(version: $0.version.description, tag: $0.tag, commit: $0.resolved.commit.hex, date: formatter.string(from: $0.resolved.date))
        }
        let warnings = scan.warnings.joined()
        if json { return CommandResult(output: try JSONOutput.string(rows), errors: warnings) }
        guard !rows.isEmpty else {
            return CommandResult(output: noReleaseText(component, context), errors: warnings)
        }
        let table = [["VERSION", "COMMIT", "DATE"]] + rows.map { [$0.version, String($0.commit.prefix(10)), $0.date] }
        return CommandResult(output: TextTable.render(table), errors: warnings)
    }

    /// What `versions` and `status` say of a component with no release tag in this clone.
    static func noReleaseText(_ component: Component, _ context: VersionedWorkspace) -> String {
        let recorded = component.version.map { " components.yaml records version \($0), but that is only the number a first release would follow." } ?? ""
        return "'\(component.name)' has no release in this clone (no tag \(component.name)@<version>).\(recorded) "
            + "Make one with 'componentctl release \(component.name) <version>'. \(context.fetchTagsAdvice)\n"
    }

    /// Releases `name` at `version` in one consistent step: commits the new `version:` of components.yaml
    /// on top of HEAD (that file alone), then tags that commit `name@version`, all or nothing.
    ///
    /// The tagged tree therefore says the version it is tagged with, and the working tree stays clean.
    public static func release(
        _ context: VersionedWorkspace, name: String, version text: String, message: String?, force: Bool = false, faultPoint: (String) -> Void = { _ in }
    ) throws -> CommandResult {
        let component = try context.component(name)
        let version = try VersionedWorkspace.version(text)
        let releases = try context.releases(of: component)
        if let same = releases.first(where: { $0.version == version }) {
            throw ToolError(
                "'\(name)' \(version) is released already (tag \(same.tag) on \(same.resolved.commit.short)); "
                    + "release a greater version than \(releases[0].version).", status: .usage)
        }
        if let last = releases.first, version < last.version {
            throw ToolError("Version \(version) of '\(name)' must be greater than its last release, \(last.version).", status: .usage)
        }
        if let recorded = component.version.flatMap(SemanticVersion.init), version < recorded {
            throw ToolError(
                "components.yaml records version \(recorded) of '\(name)', its last release; \(version) is lower. "
                    + "Release a greater version. \(context.fetchTagsAdvice)", status: .usage)
        }
        let tag = "\(name)@\(version)"
        if let kind = context.repository.kindOfTagTarget(tag) {
            throw ToolError(
                "The tag \(tag) exists already and names a \(kind), so it is no release. Inspect it with 'git cat-file -p \(tag)'; "
                    + "if it is a mistake, delete it (git tag -d \(tag)) and release again.", status: .usage)
        }
        guard !context.repository.isShallow else {
            throw ToolError(
                "This is a shallow clone, so it may lack releases of '\(name)' and the history a release is checked against. "
                    + "Fetch them first: git fetch --tags --unshallow.", status: .environment)
        }
        let path = context.repositoryPath(of: component)
        let manifestURL = try AtomicFile.resolved(context.workspace.root.appendingPathComponent(WorkspaceLoader.fileName))
        guard let manifestPath = context.repository.relativePath(of: manifestURL) else {
            throw ToolError(
                "components.yaml is a link to '\(manifestURL.path)', outside the repository. A release commits the new version line "
                    + "and tags that commit, so the file it changes must be in the repository: link to a file inside it, or release from a "
                    + "workspace whose components.yaml is in it.", status: .usage)
        }
        let changed = try context.repository.changedFiles(under: path) + context.repository.changedFiles(under: manifestPath)
        guard changed.isEmpty else {
            throw ToolError(
                "'\(name)' cannot be released with uncommitted changes (the release commits components.yaml and tags "
                    + "that commit); commit or stash them first:\n" + changed.prefix(10).map { "  \($0)" }.joined(separator: "\n"), status: .environment)
        }
        let unsettled = try AppWiring.uncommittedLinked(context.workspace)
        guard unsettled.isEmpty else {
            throw ToolError(
                "'\(name)' cannot be released while \(unsettled.prefix(8).joined(separator: ", "))"
                    + (unsettled.count > 8 ? " and \(unsettled.count - 8) more" : "") + " \(unsettled.count == 1 ? "has" : "have") uncommitted changes: "
                    + "the release commits the apps' wiring, which records the content of every component they link. Commit or stash them first.",
                status: .environment)
        }
        let head = try context.repository.headReference()
        guard try context.repository.tree(of: head.commit, path: path) != nil else {
            throw ToolError("'\(component.path)' is not in the last commit; commit the component before releasing it.", status: .environment)
        }
        try checkAPI(context, component: component, version: version, releases: releases, force: force)
        let yaml = try ComponentsFileEditor.setting("version", to: version.description, of: name, in: context.workspace)
        let summary = message ?? "Release \(name) \(version)"
        var transaction = WorkspaceTransaction(root: context.workspace.root, summary: "release \(name) \(version)")
        transaction.write(WorkspaceLoader.fileName, yaml)
        // The apps' generated wiring records the versions they link: it goes into the release commit too, so the
        // tagged commit passes `sync --check`.
        let wiring = try AppWiring.update(&transaction, yaml: yaml, root: context.workspace.root)
        let generated = try wiring.map { path in
            let repositoryPath = context.repositoryPath(path)
            guard try context.repository.changedFiles(under: repositoryPath).isEmpty else {
                throw ToolError(
                    "'\(name)' cannot be released while \(path) has uncommitted changes (the release commits it, regenerated, with "
                        + "components.yaml): run 'componentctl sync' and commit, or stash the change, first.", status: .environment)
            }
            return (path: repositoryPath, bytes: transaction.pendingWrite(path) ?? [])
        }
        let commit = try context.repository.commit(
            replacing: [(manifestPath, transaction.pendingWrite(WorkspaceLoader.fileName) ?? yaml)] + generated, message: summary, parent: head.commit)
        transaction.advance(head.name, from: head.commit, to: commit, staging: [manifestPath] + generated.map(\.path))
        transaction.createTag(tag, commit: commit, message: summary)
        try transaction.commit(repository: context.repository, faultPoint: faultPoint)
        let released =
            "Released \(name) \(version): committed '\(summary)' (\(commit.short)), which sets version: \(version) in components.yaml, "
            + "and tagged it \(tag)."
        guard head.name.hasPrefix("refs/heads/") else {
            return CommandResult(
                output: released + " HEAD is detached, so that commit is on no branch: put it on one (git switch -c NAME), "
                    + "then share both: git push origin NAME \(tag)\n")
        }
        return CommandResult(output: released + " Share both: git push origin \(head.name.dropFirst("refs/heads/".count)) \(tag)\n")
    }

    /// Refuses a minor or patch release whose public API broke since the last release of its major version
    /// (below 1.0.0, a patch release since the last of its minor version), for components other components
    /// depend on (a leaf's API has no consumer to break).
    private static func checkAPI(_ context: VersionedWorkspace, component: Component, version: SemanticVersion, releases: [Release], force: Bool) throws {
        guard !force, let previous = releases.first(where: { $0.version < version && $0.version.prerelease.isEmpty }),
            previous.version.major == version.major, version.major > 0 || previous.version.minor == version.minor
        else { return }
        let analysis = try WorkspaceAnalysis.analyze(context.workspace, scanImports: false, readSources: false)
        guard !DependencyGraph(analysis: analysis).dependents(of: [component.name]).isEmpty else { return }
        let diff = try APIDiffService.compare(context, component: component, from: .release(previous), to: .workingTree)
        guard !diff.breaking.isEmpty else { return }
        throw ToolError(
            "\(component.name) \(version) would break the public API of \(previous.version) within major version \(version.major):\n"
                + diff.breaking.map { "  \($0)\n" }.joined()
                + "Release \(diff.smallestVersion ?? "a new major version") instead (componentctl release \(component.name) \(diff.smallestVersion ?? "")), "
                + "or pass --force to release \(version) anyway.", status: .findings)
    }
}
