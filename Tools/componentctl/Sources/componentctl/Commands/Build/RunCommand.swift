import ArgumentParser
import ComponentKit
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Build and run an app of components.yaml, or a throw-away app focused on one component.",
        discussion: """
            The build's progress goes to standard error; the app gets the terminal, and its exit code is the \
            command's (4 when the build fails). --focus builds, beside the workspace in \
            .build/componentctl/focus-COMPONENT/, an app of the component, its plugins (a plugin: its feature) and the \
            features whose services it resolves; links to any other feature answer "not in this app".
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The app to run (default: the first one components.yaml declares).", valueName: "name")) var app: String?
    @Option(help: ArgumentHelp("Run a throw-away app of this component and exactly what it needs.", valueName: "component")) var focus: String?
    @Option(name: .shortAndLong, help: "debug or release.") var configuration: BuildOptions.Configuration = .debug
    @Flag(help: "Show the build's output as it runs.") var verbose = false
    @Argument(parsing: .postTerminator, help: "Arguments for the app, after --.") var arguments: [String] = []

    func validate() throws {
        if app != nil && focus != nil { throw ValidationError("Give --app NAME or --focus COMPONENT, not both.") }
    }

    func run() throws {
        let workspace = try global.workspace()
        let service = BuildService(
            root: workspace.root, action: .build, configuration: configuration.rawValue, sharedScratch: false,
            swift: BuildPlanner.swiftExecutable(environment: ProcessInfo.processInfo.environment), verbose: verbose)
        let job: BuildService.Job
        let binary: URL
        let errors = BuildProgress(live: isatty(STDERR_FILENO) == 1) { FileHandle.standardError.write(Data($0.utf8)) }
        if let focus {
            let prepared = try FocusService.prepare(workspace, component: focus)
            errors.note("Focused app of \(focus): \(prepared.members.joined(separator: ", ")) (the rest says \"not in this app\")\n")
            let folder = String(prepared.folder.path.dropFirst(workspace.root.path.count + 1))
            job = BuildService.Job(
                name: "focus \(focus)", path: folder,
                arguments: ["build", "--package-path", folder, "--product", prepared.product, "-c", configuration.rawValue])
            binary = prepared.folder.appendingPathComponent(".build/\(configuration.rawValue)/\(prepared.product)")
        } else {
            guard let chosen = try app.map({ try workspace.app(named: $0) }) ?? workspace.apps.first else {
                throw ToolError("components.yaml declares no apps; add an 'apps:' section (see docs/apps.md).", status: .usage)
            }
            job = service.appJob(chosen)
            binary = workspace.root.appendingPathComponent(".build/\(configuration.rawValue)/\(chosen.product)")
        }
        try BuildOptions.sync(global)
        let built = try service.run([job], progress: errors)
        errors.stop()
        guard built.status == .ok else { return try finish(CommandResult(output: "", errors: built.output, status: built.status)) }
        let status: Int32
        do {
            status = try ProcessRunner.runAttached(binary, arguments)
        } catch {
            throw ToolError("Cannot run \(binary.path): \(ToolError.describe(error))", status: .environment)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
