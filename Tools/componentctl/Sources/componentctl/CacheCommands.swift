import ArgumentParser
import ComponentKit
import Foundation

struct HashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Print each component's key: it changes exactly when something that can change its build or test result does.",
        discussion: """
            A component's key hashes its folder's git tree (uncommitted changes included, as git would commit them), the keys of \
            the components it depends on, its external packages' requirements, `swift --version`, the configuration, \
            COMPONENTCTL_SWIFT_FLAGS and the platform. An app's key hashes the workspace without the component folders and the \
            keys of everything it links. --explain prints the recipe.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Components (default: every component and every app).") var components: [String] = []
    @Option(name: .customLong("app"), help: ArgumentHelp("An app of components.yaml (repeat for several).", valueName: "name")) var apps: [String] = []
    @Option(name: .shortAndLong, help: "debug or release (default: debug).") var configuration: BuildOptions.Configuration?
    @Option(help: "text, json, or key (the keys alone, one a line).") var format: HashService.Format = .text
    @Flag(help: "Print the recipe of each key (text only).") var explain = false
    @Flag(
        help: ArgumentHelp(
            "Keys of each component's own content (its folder, external packages and inputs), without what it depends on, the toolchain, "
                + "configuration, flags and platform: what an app's wiring records and a runtime plugin's manifest carries (a pinned component "
                + "counts with its release).")) var content = false

    func validate() throws {
        if content, let configuration {
            throw ValidationError("--content keys hold no configuration; drop -c \(configuration.rawValue) or --content.")
        }
        if content, !apps.isEmpty {
            throw ValidationError("--content keys components; an app has no key of content alone (drop --app \(apps[0]), or --content).")
        }
        if explain && format != .text {
            throw ValidationError("--explain prints the recipes in the text format; drop --format \(format.rawValue) or --explain.")
        }
    }

    func run() throws {
        let variables = ProcessInfo.processInfo.environment
        let environment =
            content
            ? Background(finished: .contentOnly)
            : KeyEnvironment.start(
                swift: BuildPlanner.swiftExecutable(environment: variables), configuration: (configuration ?? .debug).rawValue, environment: variables)
        let status = WorkingTreeStatus.start(containing: try WorkspaceLoader.locateRoot(explicit: global.root))
        let context = try VersionedWorkspace(try global.workspace())
        // Of content alone, every component is the default: an app has no such key.
        let names = content && components.isEmpty ? context.workspace.components.map(\.name) : components
        let keys = try HashService.keys(context, names: names, apps: apps, environment: environment, status: status)
        try finish(try HashService.render(keys, format: format, explain: explain))
    }
}

struct CachedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cached",
        abstract: "Run a command unless it already passed with the same inputs (a step of a test script that is not a component).",
        discussion: """
            The step's key hashes its name, the command, the git object id of each input as it is on disk (uncommitted changes \
            included), the variables named with --env, `swift --version` and the platform. Exit status: the command's, or 0 when \
            its key already passed. Example: componentctl cached lint --input . -- scripts/lint.sh
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The step's name.") var name: String
    @Option(
        name: .customLong("input"), help: ArgumentHelp("A file or folder its result depends on, relative to the workspace root (repeat).", valueName: "path"))
    var inputs: [String] = []
    @Option(
        name: .customLong("package"),
        help: ArgumentHelp("A package folder: it and the packages it depends on by path are inputs (repeat).", valueName: "path"))
    var packages: [String] = []
    @Option(name: .customLong("env"), help: ArgumentHelp("An environment variable its result depends on (repeat).", valueName: "name"))
    var variables: [String] = []
    @OptionGroup var results: CacheOptions
    @Argument(parsing: .postTerminator, help: "The command, after --.") var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("Give the command after --, like: componentctl cached lint --input . -- scripts/lint.sh") }
        if inputs.isEmpty && packages.isEmpty { throw ValidationError("Name what the step depends on with --input PATH or --package PATH.") }
    }

    func run() throws {
        let variables = ProcessInfo.processInfo.environment
        let environment = KeyEnvironment.start(swift: BuildPlanner.swiftExecutable(environment: variables), configuration: "", environment: variables)
        let context = try VersionedWorkspace(try global.workspace())
        let step = StepService.Step(name: name, command: command, inputs: inputs, packages: packages, variables: self.variables)
        let key = try StepService.key(step, in: context, environment: try environment.wait(), variables: variables)
        let cache = try results.cache(environment: variables)
        try cache?.checkPlacement(in: context.repository)
        let status = try StepService.run(step, key: key, cache: cache) { FileHandle.standardOutput.write(Data($0.utf8)) }
        if status != 0 { throw ExitCode(status) }
    }
}

struct CICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci", abstract: "The CI workflow generated from components.yaml, and a local runner of it.",
        subcommands: [CIGitHubCommand.self, CILocalCommand.self])
}

struct CIGitHubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "github",
        abstract: "Write or update .github/workflows/components.yml: affected components, a job each (results cached by key), then the checks and the apps.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Change nothing; exit 1 when the workflow is missing or stale.") var check = false

    func run() throws {
        try finish(try CIService.github(try global.workspace(), check: check))
    }
}

struct CILocalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "local",
        abstract: "Run the workflow on this machine as GitHub Actions would: each job in a fresh clone of HEAD, the matrix from what the first job printed.",
        discussion: """
            Emulates actions/checkout, actions/cache, actions/upload-artifact and actions/download-artifact; runs every other \
            step with bash; the container is this machine. Uncommitted changes are not part of the run. Exit 4 when a job fails.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Run as for a pull request whose base is this commit (default: a first push: everything is affected).") var base: String?
    @Option(help: "The workflow, relative to the repository.") var workflow: String = GitHubWorkflow.path
    @Flag(help: "Keep the clones and logs (their folder is printed).") var keep = false
    @Option(help: ArgumentHelp("Keep what actions/cache saves in this folder, across runs (default: nothing outlives the run).", valueName: "folder"))
    var actionsCache: String?

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-ci-\(UUID().uuidString)")
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        var runner = try LocalWorkflowRunner(
            context, base: base, folder: folder, actionsCache: actionsCache.map { URL(fileURLWithPath: $0).standardizedFileURL }
        ) { FileHandle.standardOutput.write(Data($0.utf8)) }
        if try !context.repository.changedFiles(under: "").isEmpty {
            FileHandle.standardError.write(Data("note: uncommitted changes are not part of the run (each job clones HEAD).\n".utf8))
        }
        let results = try runner.run(workflow: workflow)
        try finish(LocalWorkflowRunner.summary(results, folder: folder, kept: keep))
    }
}
