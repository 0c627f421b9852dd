import ArgumentParser
import ComponentKit
import Foundation

struct APIDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-diff",
        abstract: "Compare the public API of two versions of a component: breaking changes, additions, the smallest version that allows them.",
        discussion: "Both versions are built (releases from their tags' trees, never touching the working tree) and compared with the toolchain's "
            + "swift-api-digester. Exit 1 when something breaks.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Option(help: "The release to compare from (default: its newest).") var from: String?
    @Option(help: "The release to compare to (default: the working tree).") var to: String?
    @Flag(help: "Compare to the working tree (the default).") var workingTree = false
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text

    func validate() throws {
        if workingTree, to != nil { throw ValidationError("Give --to VERSION or --working-tree, not both.") }
    }

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        try finish(try APIDiffService.report(try APIDiffService.diff(context, name: component, from: from, to: to), json: format == .json))
    }
}
