import ArgumentParser
import ComponentKit
import Foundation

struct VersionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "versions", abstract: "List a component's released versions, newest first.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text

    func run() throws {
        let workspace = try VersionedWorkspace(try global.workspace())
        try finish(try ReleaseService.versions(workspace, name: component, json: format == .json))
    }
}
