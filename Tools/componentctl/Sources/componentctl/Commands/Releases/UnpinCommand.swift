import ArgumentParser
import ComponentKit
import Foundation

struct UnpinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpin", abstract: "Make the integrated App use COMPONENT's live folder again.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String

    func run() throws {
        try finish(try global.changing { try PinService.unpin($0, name: component, faultPoint: faultPoint) })
    }
}
