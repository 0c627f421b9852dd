import ArgumentParser
import ComponentKit
import Foundation

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Materialize every pin and update the integrated manifest (what a fresh clone runs before building).")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Only report: exit 1 when the manifest or a checkout is out of date.") var check = false

    func run() throws {
        try finish(try global.changing { try SyncService.sync($0, check: check, faultPoint: faultPoint) })
    }
}
