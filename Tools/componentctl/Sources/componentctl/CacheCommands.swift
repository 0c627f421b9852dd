public import ArgumentParser
import ComponentKit
import Foundation

extension HashService.Format: ExpressibleByArgument {}

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
    @Option(name: .shortAndLong, help: "debug or release.") var configuration: BuildOptions.Configuration = .debug
    @Option(help: "text, json, or key (the keys alone, one a line).") var format: HashService.Format = .text
    @Flag(help: "Print the recipe of each key (text only).") var explain = false

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        let variables = ProcessInfo.processInfo.environment
        let environment = try KeyEnvironment.current(
            swift: BuildPlanner.swiftExecutable(environment: variables), configuration: configuration.rawValue, environment: variables)
        let keys = try HashService.keys(context, names: components, apps: apps, environment: environment)
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
    @Option(name: .customLong("input"), help: ArgumentHelp("A file or folder its result depends on, relative to the workspace root (repeat).", valueName: "path"))
    var inputs: [String] = []
    @Option(
        name: .customLong("package"),
        help: ArgumentHelp("A package folder: it and the packages it depends on by path are inputs (repeat).", valueName: "path"))
    var packages: [String] = []
    @Option(name: .customLong("env"), help: ArgumentHelp("An environment variable its result depends on (repeat).", valueName: "name"))
    var variables: [String] = []
    @Flag(help: "Run it even when its key already passed.") var noCache = false
    @Option(help: ArgumentHelp("Where passed steps are remembered (as for 'test').", valueName: "folder-or-url")) var cache: String?
    @Flag(help: "Take passed results from the cache but record none.") var cacheReadOnly = false
    @Argument(parsing: .postTerminator, help: "The command, after --.") var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("Give the command after --, like: componentctl cached lint --input . -- scripts/lint.sh") }
        if inputs.isEmpty && packages.isEmpty { throw ValidationError("Name what the step depends on with --input PATH or --package PATH.") }
    }

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        let variables = ProcessInfo.processInfo.environment
        let step = StepService.Step(name: name, command: command, inputs: inputs, packages: packages, variables: self.variables)
        let environment = try KeyEnvironment.current(swift: BuildPlanner.swiftExecutable(environment: variables), configuration: "", environment: variables)
        let key = try StepService.key(step, in: context, environment: environment, variables: variables)
        let cache =
            noCache
            ? nil
            : try ResultsCache.configured(location: cache, readOnly: cacheReadOnly, environment: variables) { warning in
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
        let status = try StepService.run(step, key: key, cache: cache) { FileHandle.standardOutput.write(Data($0.utf8)) }
        if status != 0 { throw ExitCode(status) }
    }
}
