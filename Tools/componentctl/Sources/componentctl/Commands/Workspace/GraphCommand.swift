import ArgumentParser
import ComponentKit
import Foundation

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
            try analysis.workspace.checkAppExists(app)
            analysis = analysis.restricted(to: AppPlan.componentsOfEveryApp(analysis)[app] ?? [])
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
