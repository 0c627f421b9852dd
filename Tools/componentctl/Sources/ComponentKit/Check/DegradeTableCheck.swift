import Foundation

/// Degrade tables the workspace ships (the shell's bundled one, each app's `degrade:` file): a rule whose
/// pattern the App's router would refuse (`degrade-table`), or that names a route no component the table
/// serves declares (`degrade-rule-unmatched`): the App matches a rule to a registered route by its shape,
/// so such a rule would never apply (a misspelt host, a route renamed since, a component the app leaves
/// out). The App reports them at start too; this finds them before a release.
struct DegradeTableCheck {
    let analysis: WorkspaceAnalysis

    /// The shell's own degrade table, relative to the workspace root.
    static let bundledTable = AppPlan.shellFolder + "/Resources/degrade.json"

    func findings() -> [Diagnostic] {
        let workspace = analysis.workspace
        // The bundled table serves any app; an app's own table only the components that app links.
        var served: [String: Set<String>] = [Self.bundledTable: Set(analysis.packages.keys)]
        let linked = AppPlan.linkedComponents(analysis)
        for app in workspace.apps {
            guard let table = app.degradeTable else { continue }
            served[table, default: []].formUnion(linked[app.name] ?? [])
        }
        return served.keys.sorted().flatMap { path -> [Diagnostic] in
            guard let data = FileManager.default.contents(atPath: workspace.root.appendingPathComponent(path).path) else { return [] }
            return problems(in: data, path: path, shapes: shapes(of: served[path] ?? []))
        }
    }

    /// The route shapes `components` declare.
    private func shapes(of components: Set<String>) -> Set<String> {
        var shapes = Set<String>()
        for name in components {
            for target in analysis.packages[name]?.targets ?? [] {
                for file in target.files { shapes.formUnion(file.routes.map { RouteShape.of($0.pattern) }) }
            }
        }
        return shapes
    }

    private func problems(in data: Data, path: String, shapes: Set<String>) -> [Diagnostic] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let rules = object["rules"] as? [[String: Any]] else {
            return [
                Diagnostic(
                    path: path, line: 1, column: 1, message: "'\(path)' is no degrade table: a JSON object with a list of \"rules\"",
                    fix: #"write {"rules": [{"pattern": "scheme://host/...", "target": "https://..."}]}"#, rule: "degrade-table")
            ]
        }
        let text = String(decoding: data, as: UTF8.self)
        var searchFrom = text.startIndex
        var findings: [Diagnostic] = []
        for rule in rules {
            guard let pattern = rule["pattern"] as? String else { continue }
            // The pattern's place: its next quoted occurrence, in the order the rules are written.
            let quoted = "\"" + pattern + "\""
            let found = text.range(of: quoted, range: searchFrom..<text.endIndex) ?? text.range(of: quoted)
            if let found { searchFrom = found.upperBound }
            let (line, column) = found.map { position(of: $0.lowerBound, in: text) } ?? (1, 1)
            if let problem = RouteShape.problem(of: pattern) {
                findings.append(
                    Diagnostic(
                        path: path, line: line, column: column, message: "degrade rule pattern '\(pattern)' is not a route pattern: \(problem)",
                        fix: "write the pattern as the route registers it, like 'myapp://product/<int:id>'", rule: "degrade-table"))
                continue
            }
            guard !shapes.contains(RouteShape.of(pattern)) else { continue }
            findings.append(
                Diagnostic(
                    path: path, line: line, column: column,
                    message: "degrade rule for '\(pattern)' matches no route of the components this table serves, so it would never apply",
                    fix: "write the pattern of a registered route (its parameters may be named differently), or remove the rule",
                    rule: "degrade-rule-unmatched"))
        }
        return findings
    }

    private func position(of index: String.Index, in text: String) -> (Int, Int) {
        let before = text[..<index]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
        return (line, column)
    }
}
