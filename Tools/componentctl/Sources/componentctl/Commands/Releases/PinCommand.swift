import ArgumentParser
import ComponentKit
import Foundation

struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Make the integrated App use COMPONENT as it was at release VERSION; everything else stays live.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Argument(help: "A released version.") var version: String
    @Flag(help: "Check and show what would change, change nothing.") var dryRun = false

    func run() throws {
        try finish(try global.changing { try PinService.pin($0, name: component, version: version, dryRun: dryRun, faultPoint: faultPoint) })
    }
}
