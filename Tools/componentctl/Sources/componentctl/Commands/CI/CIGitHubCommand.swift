import ArgumentParser
import ComponentKit
import Foundation

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
