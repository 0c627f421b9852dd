import Foundation

/// Which jobs `build` and `test` run for what the user chose: components by name, every one, those a
/// change affected, or the integrated App.
public struct BuildSelection: Sendable, Equatable {
    /// Standalone packages or the integrated App, when the user said which.
    public enum Mode: String, Sendable {
        case standalone, integrated
    }

    /// Components named on the command line.
    public var components: [String] = []
    /// The mode the user chose, if any.
    public var mode: Mode?
    /// Every component.
    public var all = false
    /// With `--affected`: the commit to compare from.
    public var affectedBase: String?
    /// With `--affected`: the commit to compare to (default: HEAD).
    public var head: String?
    /// Apps of components.yaml to build, or to run the root tests against.
    public var apps: [String] = []

    /// A selection; each field as the command line gave it.
    public init(
        components: [String] = [], mode: Mode? = nil, all: Bool = false, affectedBase: String? = nil, head: String? = nil, apps: [String] = []
    ) {
        self.apps = apps
        self.components = components
        self.mode = mode
        self.all = all
        self.affectedBase = affectedBase
        self.head = head
    }
}

/// Turns a ``BuildSelection`` into the jobs of a ``BuildService``.
public enum BuildPlanner {
    /// The jobs `selection` means in `workspace`; `integrated` says whether the App's job is among them
    /// (its pinned checkouts must be in place before it runs).
    public static func plan(_ selection: BuildSelection, in workspace: Workspace, service: BuildService) throws -> (jobs: [BuildService.Job], integrated: Bool)
    {
        if !selection.apps.isEmpty {
            return (try selection.apps.map { service.appJob(try workspace.app(named: $0)) }, true)
        }
        if let base = selection.affectedBase {
            let rows = try AffectedService.rows(try VersionedWorkspace(workspace), base: base, head: selection.head, uncommitted: false)
            let names = Set(rows.filter { $0.kind == .component }.map(\.name))
            let jobs = try dependenciesFirst(workspace.components.filter { names.contains($0.name) }, in: workspace).map(service.standaloneJob)
            let apps = selection.mode == .standalone ? [] : rows.filter { $0.kind == .app }.map(\.name)
            // Each affected app alone; a workspace that declares no apps has its root package, if any, built whole. An app an
            // Xcode project assembles is not built here.
            let declared = Set(workspace.apps.map(\.name))
            let appJobs =
                workspace.apps.isEmpty
                ? (apps.isEmpty || !WorkspaceLoader.hasRootPackage(at: workspace.root) ? [] : [service.integratedJob()])
                : try apps.filter(declared.contains).map { service.appJob(try workspace.app(named: $0)) }
            return (jobs + appJobs, !appJobs.isEmpty)
        }
        if selection.mode == .integrated || (selection.components.isEmpty && !selection.all) {
            guard !workspace.apps.isEmpty || WorkspaceLoader.hasRootPackage(at: workspace.root) else {
                throw ToolError(
                    "There is no integrated App to build here: no root Package.swift and no apps in components.yaml. "
                        + "Build components alone: name them, or give --all, or --affected --base REF.", status: .usage)
            }
            return ([service.integratedJob()], true)
        }
        let chosen =
            try selection.all
            ? workspace.components
            : selection.components.map { name in
                guard let component = workspace.component(named: name) else { throw workspace.unknownComponent(name) }
                return component
            }
        return (try dependenciesFirst(chosen, in: workspace).map(service.standaloneJob), false)
    }

    /// Dependencies build first, so that a shared scratch folder reuses what their own builds compiled.
    private static func dependenciesFirst(_ components: [Component], in workspace: Workspace) throws -> [Component] {
        let graph = DependencyGraph(analysis: try .analyze(workspace, scanImports: false, readSources: false))
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return graph.dependenciesFirst(components.map(\.name)).compactMap { byName[$0] }
    }

    /// `jobs` with their keys, for the results cache: a component's key for its own package, an app's for
    /// the root package's (`app NAME`, or every app for the integrated job).
    public static func keyed(_ jobs: [BuildService.Job], in context: VersionedWorkspace, environment: KeyEnvironment) throws -> [BuildService.Job] {
        var keys = try ComponentKeys(context, environment: environment)
        return try jobs.map { job in
            var job = job
            let key: ComponentKey
            if job.path == "." {
                let app = job.name.hasPrefix("app ") && job.name != "app (integrated)" ? String(job.name.dropFirst(4)) : nil
                key = try keys.appKey(try app.map { try context.workspace.app(named: $0) })
            } else {
                key = try keys.key(of: job.name)
            }
            // A key that cannot follow every input must not reuse a result: the job runs, uncached.
            job.key = key.unreadable.isEmpty ? key.key : nil
            job.keyIsUncommitted = key.uncommitted
            return job
        }
    }

    /// The `swift` to run: `COMPONENTCTL_SWIFT` (tests use a fake), else the one on the PATH.
    public static func swiftExecutable(environment: [String: String]) -> String {
        environment["COMPONENTCTL_SWIFT"].flatMap { $0.isEmpty ? nil : $0 } ?? GraphRenderer.findExecutable("swift", path: environment["PATH"])
            ?? "/usr/bin/swift"
    }
}
