import ArgumentParser
import ComponentKit
import Foundation

/// What `build` and `test` share.
struct BuildOptions: ParsableArguments {
    enum Mode: String, EnumerableFlag {
        case standalone, integrated
    }

    enum Configuration: String, ExpressibleByArgument, CaseIterable {
        case debug, release
    }

    enum Scratch: String, ExpressibleByArgument, CaseIterable {
        case shared, package
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Components to build alone (default: the integrated App).") var components: [String] = []
    @Flag(help: "Each component from its own package, or the integrated App.") var mode: Mode?
    @Flag(help: "Every component.") var all = false
    @Flag(help: "The components changed since --base, plus their dependents, and each app they or its own paths reach.") var affected = false
    @Option(help: "With --affected: the commit to compare from.") var base: String?
    @Option(help: "With --affected: the commit to compare to (default: HEAD).") var head: String?
    @Option(name: .shortAndLong, help: "debug or release.") var configuration: Configuration = .debug
    @Option(
        help: ArgumentHelp(
            "Where standalone builds compile: shared (one folder; each build sees only what its package declares) or package (each package's own .build)."
        )) var scratch: Scratch?
    @Flag(help: "Show each build's output as it runs (CI logs), besides writing it to its log file.") var verbose = false
    @OptionGroup var results: CacheOptions
    @Option(
        name: .customLong("app"),
        help: ArgumentHelp("Build this app of components.yaml, or run the root tests against it (repeat for several).", valueName: "name"))
    var apps: [String] = []

    func validate() throws {
        if !apps.isEmpty && (all || affected || !components.isEmpty || mode == .standalone) {
            throw ValidationError("--app builds whole apps; name no components and no --all, --affected or --standalone")
        }
        if affected && base == nil { throw ValidationError("--affected needs --base REF") }
        if mode == .standalone && components.isEmpty && !all && !affected {
            throw ValidationError("--standalone needs the components to take alone: name them, or give --all or --affected --base REF")
        }
        if mode == .integrated && (all || !components.isEmpty) { throw ValidationError("--integrated builds the App; name no components and no --all") }
        if affected && (all || !components.isEmpty) { throw ValidationError("--affected chooses the components itself") }
        let onlyIntegrated = mode == .integrated || !apps.isEmpty || (components.isEmpty && !all && !affected)
        if let scratch, onlyIntegrated {
            throw ValidationError(
                "--scratch \(scratch.rawValue) chooses where standalone builds compile, and this builds no component alone; "
                    + "drop --scratch, or name components to build alone")
        }
    }

    func run(_ action: BuildService.Action) throws {
        let workspace = try global.workspace()
        let variables = ProcessInfo.processInfo.environment
        let swift = BuildPlanner.swiftExecutable(environment: variables)
        let cache = action == .test ? try results.cache(environment: variables) : nil
        let service = BuildService(
            root: workspace.root, action: action, configuration: configuration.rawValue, sharedScratch: (scratch ?? .shared) == .shared, swift: swift,
            verbose: verbose,
            flags: KeyEnvironment.swiftFlags(variables), cache: cache)
        let selection = BuildSelection(
            components: components, mode: mode.flatMap { BuildSelection.Mode(rawValue: $0.rawValue) }, all: all,
            affectedBase: affected ? base : nil, head: head, apps: apps)
        let plan = try BuildPlanner.plan(selection, in: workspace, service: service)
        if plan.integrated { try Self.sync(global) }
        guard !plan.jobs.isEmpty else { return try finish(CommandResult(output: "Nothing to \(action.rawValue).\n")) }
        let progress = BuildProgress.standardOutput()
        defer { progress.stop() }
        var jobs = plan.jobs
        if let cache {
            jobs = try keyed(jobs, workspace: workspace, swift: swift, variables: variables, cache: cache, progress: progress)
        }
        try finish(try service.run(jobs, progress: progress))
    }

    /// `jobs` with their keys; a workspace whose keys cannot be computed (no git repository) runs uncached, with a warning.
    private func keyed(
        _ jobs: [BuildService.Job], workspace: Workspace, swift: String, variables: [String: String], cache: ResultsCache, progress: BuildProgress
    ) throws -> [BuildService.Job] {
        if let repository = try? GitRepository(containing: workspace.root) { try cache.checkPlacement(in: repository) }
        do {
            let environment = try KeyEnvironment.current(swift: swift, configuration: configuration.rawValue, environment: variables)
            let versioned = try VersionedWorkspace(workspace)
            let keyed = try BuildPlanner.keyed(jobs, in: versioned, environment: environment)
            let dirty = keyed.filter(\.keyIsUncommitted).map(\.name)
            progress.note(
                "Results cache: \(cache.location)\(cache.readOnly ? " (read-only)" : "")"
                    + (dirty.isEmpty ? "" : "; keys include uncommitted changes of \(dirty.joined(separator: ", "))") + "\n")
            return keyed
        } catch {
            FileHandle.standardError.write(Data("warning: no results are cached in this run: \(ToolError.describe(error))\n".utf8))
            return jobs
        }
    }

    /// The integrated build uses the pinned checkouts and the generated wiring: bring them up to date
    /// first when they are missing or stale.
    static func sync(_ global: GlobalOptions) throws {
        let check = try global.changing { try SyncService.sync($0, check: true) }
        guard check.status != .ok else { return }
        let synced = try global.changing { try SyncService.sync($0, check: false) }
        FileHandle.standardError.write(Data(synced.output.utf8))
    }
}
