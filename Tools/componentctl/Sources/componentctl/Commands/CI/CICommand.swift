import ArgumentParser
import ComponentKit
import Foundation

struct CICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ci", abstract: "The CI workflow generated from components.yaml, and a local runner of it.",
        subcommands: [CIGitHubCommand.self, CILocalCommand.self])
}
