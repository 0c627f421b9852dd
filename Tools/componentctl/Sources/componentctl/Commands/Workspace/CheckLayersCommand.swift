import ArgumentParser
import ComponentKit
import Foundation

struct CheckLayersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-layers",
        abstract: "Find every dependency and import that breaks the layering (exit 0 clean, 1 findings).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "text, json, sarif or github.") var format: ReportFormat = .text
    @Option(help: "Accept the findings listed in this baseline file; its stale entries fail.") var baseline: String?
    @Flag(help: "Drop the baseline's stale entries (it only ever shrinks).") var updateBaseline = false
    @Option(help: "Write a baseline accepting every current finding to this file.") var writeBaseline: String?

    func run() throws {
        let options = CheckLayersService.Options(
            format: format, baseline: baseline.map { URL(fileURLWithPath: $0) }, updateBaseline: updateBaseline,
            writeBaseline: writeBaseline.map { URL(fileURLWithPath: $0) })
        try finish(try CheckLayersService.run(try global.workspace(), options: options))
    }
}
