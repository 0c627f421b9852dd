public import ArgumentParser
import ComponentKit
import Foundation

extension ReportFormat: ExpressibleByArgument {}
extension GraphRenderer.Format: ExpressibleByArgument {}
extension AffectedService.Format: ExpressibleByArgument {}
extension HashService.Format: ExpressibleByArgument {}

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

struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "why", abstract: "Show the shortest dependency chain from one component to another.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The depending component.") var from: String
    @Argument(help: "The component depended on.") var to: String

    func run() throws {
        try finish(try WhyService.run(try global.workspace(), from: from, to: to))
    }
}

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "graph", abstract: "Draw the component graph by layer, violations in red.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "dot, mermaid, json, svg (needs Graphviz) or html (one page to explore, no network).") var format: GraphRenderer.Format = .dot
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(help: "Only the components this app links.") var app: String?
    @Option(help: "With --format html: highlight what changed since this git revision affects (uncommitted changes too).") var affectedBase: String?

    func validate() throws {
        if affectedBase != nil && format != .html { throw ValidationError("--affected-base highlights components on the page: add --format html.") }
    }

    func run() throws {
        let workspace = try global.workspace()
        var analysis = try WorkspaceAnalysis.analyze(workspace)
        if let app {
            let name = try analysis.workspace.app(named: app).name
            analysis = analysis.restricted(to: AppPlan.linkedComponents(analysis)[name] ?? [])
        }
        var affected: [String: String] = [:]
        if let affectedBase {
            let rows = try AffectedService.rows(
                try VersionedWorkspace(workspace), base: affectedBase, head: nil, uncommitted: true, baseOption: "--affected-base")
            for row in rows where row.kind == .component { affected[row.name] = row.reason }
        }
        if !analysis.unreadableComponents.isEmpty {
            FileHandle.standardError.write(
                Data(
                    "note: the manifests of \(analysis.unreadableComponents.joined(separator: ", ")) could not be read: their edges are missing ('componentctl check-layers' says why)\n"
                        .utf8))
        }
        try emit(try GraphRenderer.render(analysis, format: format, affected: affected, affectedBase: affectedBase), to: output)
    }
}
