import ArgumentParser
import ComponentKit
import Foundation

struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "why", abstract: "Show the shortest dependency chain from one component to another.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The depending component.") var from: String
    @Argument(help: "The component depended on.") var to: String

    func run() throws {
        try finish(try WhyService.run(try global.workspace(), from: from, to: to))
    }
}
