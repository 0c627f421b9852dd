import ArgumentParser
import ComponentKit
import Foundation

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
