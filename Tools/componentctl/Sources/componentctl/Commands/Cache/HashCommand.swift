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
