import ArgumentParser
import ComponentKit
import Foundation

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build", abstract: "Build components alone (demo executables included) or the integrated App (exit 4 on failure).")

    @OptionGroup var options: BuildOptions

    func run() throws { try options.run(.build) }
}
