import ArgumentParser
import ComponentKit
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List components: name, layer, kind, path, version, pin, modules.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "text or json.") var format: ListFormat = .text
    @Option(help: "Only the components this app links.") var app: String?
    @Flag(help: "The apps instead: name, product, components, what a left-out feature's link does.") var apps = false

    enum ListFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if apps && app != nil { throw ValidationError("Give --apps (every app) or --app NAME (one app's components), not both.") }
    }

    func run() throws {
        let analysis = try WorkspaceAnalysis.analyze(try global.workspace())
        if apps { return try finish(CommandResult(output: try ListService.renderApps(ListService.appRows(analysis), json: format == .json))) }
        try finish(CommandResult(output: try ListService.render(try ListService.rows(analysis, app: app), json: format == .json)))
    }
}
