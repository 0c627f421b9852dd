import Foundation

/// Degrade tables the workspace ships (the shell's bundled one, each app's `degrade:` file) whose rules
/// name a route no component declares: the App matches a rule to a registered route by its shape, so
/// such a rule would never apply (a misspelt host, a route renamed since). The App reports them at start
/// too; this finds them before a release.
struct DegradeTableCheck {
    let analysis: WorkspaceAnalysis

    /// The shell's own degrade table, relative to the workspace root.
    static let bundledTable = AppPlan.shellFolder + "/Resources/degrade.json"

    func findings() -> [Diagnostic] {
        let workspace = analysis.workspace
        var shapes = Set<String>()
        for package in analysis.packages.values {
            for target in package.targets { for file in target.files { shapes.formUnion(file.routes.map { RouteShape.of($0.pattern) }) } }
        }
        let tables = Set([Self.bundledTable] + workspace.apps.compactMap(\.degradeTable)).sorted()
        return tables.flatMap { path -> [Diagnostic] in
            guard let data = FileManager.default.contents(atPath: workspace.root.appendingPathComponent(path).path) else { return [] }
            return unmatched(in: data, path: path, shapes: shapes)
        }
    }

    private func unmatched(in data: Data, path: String, shapes: Set<String>) -> [Diagnostic] {
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
            guard !shapes.contains(RouteShape.of(pattern)) else { continue }
            let (line, column) = found.map { position(of: $0.lowerBound, in: text) } ?? (1, 1)
            findings.append(
                Diagnostic(
                    path: path, line: line, column: column,
                    message: "degrade rule for '\(pattern)' matches no route any component declares, so it would never apply",
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
