import ArgumentParser
import ComponentKit
import Foundation

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Test components in their own packages, or the integrated App (exit 4 on failure).")

    @OptionGroup var options: BuildOptions

    func run() throws { try options.run(.test) }
}
