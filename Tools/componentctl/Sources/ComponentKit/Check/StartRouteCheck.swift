import Foundation

/// The start-route check: an app opens `workspace.start` first, but none of its components has a route that
/// matches it, so its first screen would be "Page not found". Found from the routes the sources declare.
struct StartRouteCheck {
    let analysis: WorkspaceAnalysis

    /// A finding for each app whose components answer no route of the start.
    func findings() -> [Diagnostic] {
        let workspace = analysis.workspace
        guard let start = workspace.start, let line = startLine() else { return [] }
        // A route matches the URL's path: its query and fragment are the screen's arguments.
        let url = String(start.prefix { $0 != "?" && $0 != "#" })
        let shell = AppPlan.shellComponents(analysis)
        return workspace.apps.compactMap { app in
            let linked = AppPlan.closure(of: Set(app.componentNames), analysis).union(shell)
            // An implementation answers the routes its interface declares and its own.
            let owners = linked.compactMap { workspace.component(named: $0) }.filter { $0.kind != .interface }.flatMap {
                [$0.name] + ($0.interface.map { [$0] } ?? [])
            }
            guard !owners.contains(where: { patterns(of: $0).contains { RouteShape.overlaps($0, url) } }) else { return nil }
            return Diagnostic(
                path: WorkspaceLoader.fileName, line: line.line, column: line.column,
                message: "app '\(app.name)' opens workspace.start '\(start)' first, but none of its components has a route that matches it",
                fix: "add the component whose route it is to the app's components, or set workspace.start to a route of the app",
                rule: "start-route")
        }
    }

    private func patterns(of component: String) -> [String] {
        analysis.packages[component]?.targets.flatMap { $0.files.flatMap { $0.routes.map(\.pattern) } } ?? []
    }

    /// Where components.yaml sets the start.
    private func startLine() -> (line: Int, column: Int)? {
        guard case .mapping(let top, _, _) = analysis.workspace.document,
            case .mapping(let fields, _, _)? = top.first(where: { $0.key.value == "workspace" })?.value,
            case .scalar(let value)? = fields.first(where: { $0.key.value == "start" })?.value
        else { return nil }
        return (value.start.line, value.start.column)
    }
}
