import Foundation

/// `componentctl affected`: the components a change touched, plus everything that depends on them.
public enum AffectedService {
    /// One affected component or app; JSON is ready for a CI matrix.
    public struct Row: Codable, Sendable, Equatable {
        /// The component's name; an app's name in components.yaml, or `app` (the root package) in a workspace that declares none.
        public var name: String
        /// Its folder (`.` for an app: the root package builds it).
        public var path: String
        /// `changed` or `dependent` (`all` without a base).
        public var reason: String
        /// `component` or `app`.
        public var kind: Kind = .component
    }

    /// What a row names.
    public enum Kind: String, Codable, Sendable {
        /// A component of components.yaml: tested alone, in its own package.
        case component
        /// An app (or the root package): built or tested with the workspace.
        case app
    }

    /// How the rows are printed.
    public enum Format: String, Sendable, CaseIterable {
        /// A table.
        case text
        /// An array of rows.
        case json
        /// One line a GitHub Actions matrix takes as it is (`{"include": [...]}`), the components only: the
        /// App is the workflow's last job.
        case githubMatrix = "github-matrix"
    }

    /// Every component, and every app: what a first run or a run without a base tests.
    public static func all(_ workspace: Workspace) -> [Row] {
        workspace.components.map { Row(name: $0.name, path: $0.path, reason: "all") } + appNames(workspace).map { appRow($0, reason: "all", in: workspace) }
    }

    /// The apps of components.yaml (those Xcode projects assemble too), or `app`, the root package, when it declares none.
    static func appNames(_ workspace: Workspace) -> [String] {
        workspace.allAppNames.isEmpty ? ["app"] : workspace.allAppNames
    }

    /// An app's row: at its Xcode project, or at the root, whose package builds the others.
    private static func appRow(_ name: String, reason: String, in workspace: Workspace) -> Row {
        Row(name: name, path: workspace.xcodeApps.first { $0.name == name }?.project ?? ".", reason: reason, kind: .app)
    }

    /// The affected components between `base` and `head`, with `uncommitted` changes when asked.
    ///
    /// A component is changed when any input of its build differs (``BuildInputs``: its folder, the packages it
    /// depends on by path wherever links lead, the submodules they lie in, the links themselves, the inputs of a
    /// generated one, the workspace's declared inputs, and the lock's versions of its external packages). Then
    /// everything that depends on a changed component. An app is changed when a path of its `apps.<name>.paths`
    /// differs (without paths, a file outside the component folders, as its key takes), and dependent when a
    /// component it links is affected.
    public static func rows(
        _ context: VersionedWorkspace, base: String, head: String?, uncommitted: Bool, baseOption: String = "--base"
    ) throws -> [Row] {
        let repository = context.repository
        let baseCommit = try revision(base, option: baseOption, in: repository)
        let headCommit = try revision(head ?? "HEAD", option: "--head", in: repository)
        let workspace = context.workspace
        let analysis = try WorkspaceAnalysis.analyze(workspace, readSources: false)
        let inputs = try BuildInputs(context)
        let declared = workspace.inputs.map(context.repositoryPath)
        var paths: [String: Set<String>] = [:]
        var unknownInputs = Set<String>()
        var successors = DependencyGraph(analysis: analysis).successors
        for component in workspace.components {
            let found = try inputs.resolve(component, manifest: analysis.packages[component.name]?.manifest)
            var own = Set([context.repositoryPath(of: component)] + declared).union(found.links).union(found.linked)
            for (path, source) in found.packages {
                switch source {
                case .tracked, .ignored: own.insert(path)
                case .submodule(let submodule): own.insert(submodule)
                case .generated(_, let from): own.formUnion(from)
                }
            }
            paths[component.name] = own
            successors[component.name, default: []] += found.components
            // Inputs no path names (a dependency spelled as an expression, the root package) may have changed anywhere: always affected.
            if !found.unreadable.isEmpty || found.rootPackage != nil { unknownInputs.insert(component.name) }
        }
        // Each app's own files (`apps.<name>.paths`); without, everything outside the component folders, as its key.
        let ownPaths = Dictionary(
            uniqueKeysWithValues: appNames(workspace).map { name in
                (
                    name,
                    Set(
                        (workspace.apps.first { $0.name == name }?.ownPaths ?? workspace.xcodeApps.first { $0.name == name }?.paths ?? []).map(
                            context.repositoryPath))
                )
            })
        let appPaths = Set(ownPaths.values.flatMap { $0 })
        let changedPaths = try repository.changedPaths(Array(Set(paths.values.flatMap { $0 }).union(appPaths)), between: baseCommit, and: headCommit)
        let lockPath = context.repositoryPath(workspace.lock)
        let locks = try [baseCommit, headCommit].map { commit in
            try repository.file(at: lockPath, in: commit).map { try PackageLock.parse(Data($0), shown: "\(workspace.lock) at \(commit.short)") }
        }
        var changed = unknownInputs.union(
            workspace.components.filter { component in
                guard paths[component.name]?.isDisjoint(with: changedPaths) == true else { return true }
                // As in the keys: a component with external packages reads every pin (theirs depend on others).
                let external = (analysis.packages[component.name]?.manifest?.dependencies ?? []).contains { $0.url != nil }
                return external && locks[0] != locks[1]
            }.map(\.name))
        let folders = workspace.components.map(context.repositoryPath(of:))
        let inComponent = { (file: String) in folders.contains { file == $0 || file.hasPrefix($0 + "/") } }
        let outsideComponents = { (file: String) in file.hasPrefix(context.prefix.isEmpty ? "" : context.prefix + "/") && !inComponent(file) }
        // An app's own files are never a component's: a folder of its paths that holds components counts only the rest.
        let holdsComponents = { (own: Set<String>) in own.contains { path in folders.contains { $0.hasPrefix(path + "/") } } }
        let isOwn = { (file: String, own: Set<String>) in own.contains { file == $0 || file.hasPrefix($0 + "/") } && !inComponent(file) }
        let needsFiles = ownPaths.values.contains { $0.isEmpty || holdsComponents($0) }
        let changedFiles = needsFiles ? try repository.changedFiles(between: baseCommit, and: headCommit) : []
        let outsideChanged = changedFiles.contains(where: outsideComponents)
        var changedApps = Set(
            ownPaths.filter { _, own in
                own.isEmpty ? outsideChanged : holdsComponents(own) ? changedFiles.contains { isOwn($0, own) } : !own.isDisjoint(with: changedPaths)
            }.keys)
        if uncommitted {
            for file in try repository.changedFiles(under: context.prefix) {
                let under = { (path: String) in file == path || file.hasPrefix(path + "/") }
                for component in workspace.components where paths[component.name]?.contains(where: under) == true { changed.insert(component.name) }
                for (app, own) in ownPaths where own.isEmpty ? outsideComponents(file) : isOwn(file, own) { changedApps.insert(app) }
            }
        }
        let dependents = DependencyGraph(nodes: workspace.components.map(\.name), successors: successors).dependents(of: changed)
        var rows = workspace.components.compactMap { component -> Row? in
            if changed.contains(component.name) { return Row(name: component.name, path: component.path, reason: "changed") }
            if dependents.contains(component.name) { return Row(name: component.name, path: component.path, reason: "dependent") }
            return nil
        }
        // An app depends on the components it links; the root package of a workspace without apps, on all of them.
        let touched = changed.union(dependents)
        var linked = AppPlan.linkedComponents(analysis)
        let graph = DependencyGraph(nodes: workspace.components.map(\.name), successors: successors)
        for app in workspace.xcodeApps { linked[app.name] = graph.closure(of: Set(app.components)) }
        for app in appNames(workspace) {
            if changedApps.contains(app) {
                rows.append(appRow(app, reason: "changed", in: workspace))
            } else if !touched.isDisjoint(with: linked[app] ?? Set(workspace.components.map(\.name))) {
                rows.append(appRow(app, reason: "dependent", in: workspace))
            }
        }
        return rows
    }

    /// The commit `text` names; a usage error that says what to do when there is none.
    static func revision(_ text: String, option: String, in repository: GitRepository) throws -> GitOID {
        do {
            return try repository.resolveCommit(text)
        } catch {
            throw ToolError(
                "\(option) '\(text)' names no commit of this clone. Give a branch, tag or commit id; in CI, fetch the history "
                    + "(actions/checkout with fetch-depth: 0) or use --all when there is no base (a first push).", status: .usage)
        }
    }

    /// The most jobs GitHub Actions makes of one matrix.
    public static let githubMatrixLimit = 256

    /// `rows` as matrix entries: one a component, or, past `limit`, consecutive components shared out over
    /// `limit` entries whose name and path list several, space-separated (the workflow passes them on as
    /// they are: `test a b c`).
    static func matrixEntries(_ rows: [Row], limit: Int) -> [Row] {
        guard rows.count > limit else { return rows }
        let size = (rows.count + limit - 1) / limit
        return stride(from: 0, to: rows.count, by: size).map { start in
            let group = rows[start..<min(start + size, rows.count)]
            return Row(
                name: group.map(\.name).joined(separator: " "), path: group.map(\.path).joined(separator: " "),
                reason: Set(group.map(\.reason)).sorted().joined(separator: ","))
        }
    }

    /// The rows in `format`.
    public static func render(_ rows: [Row], format: Format) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.string(rows)
        case .githubMatrix:
            // Components only (each a job of its own), so an entry needs no kind.
            struct Entry: Encodable { var name, path, reason: String }
            struct Matrix: Encodable { var include: [Entry] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let entries = matrixEntries(rows.filter { $0.kind == .component }, limit: githubMatrixLimit)
            let matrix = Matrix(include: entries.map { Entry(name: $0.name, path: $0.path, reason: $0.reason) })
            return String(decoding: try encoder.encode(matrix), as: UTF8.self) + "\n"
        case .text:
            guard !rows.isEmpty else { return "Nothing is affected.\n" }
            return TextTable.render([["NAME", "KIND", "REASON", "PATH"]] + rows.map { [$0.name, $0.kind.rawValue, $0.reason, $0.path] })
        }
    }
}
