import ArgumentParser
import ComponentKit
import Foundation

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each component's version (or that it has no release), pin, commits since its release, local changes and apps.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text
    @Option(help: "Only the components this app links.") var app: String?

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        try finish(CommandResult(output: try StatusService.render(try StatusService.rows(context, app: app), json: format == .json)))
    }
}
