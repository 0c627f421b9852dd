/// A runtime plugin's route must match no URL that a route of another component matches: a literal
/// `myapp://user/login/alice` in a plugin would answer alice's sign-in link instead of the User module
/// (a literal beats a parameter), and a wider pattern would be shadowed in turn. The App refuses such a
/// plugin at load as well, and `plugin publish` refuses it against the feed's other plugins.
struct PluginRouteOverlapCheck {
    let analysis: WorkspaceAnalysis

    /// A route as a component declares it.
    struct Declared {
        var owner: String
        var pattern: String
        var place: String
    }

    func findings() -> [Diagnostic] {
        let routes = Self.routes(in: analysis)
        var findings: [Diagnostic] = []
        for component in analysis.workspace.components where component.kind == .plugin && component.isRuntime {
            for target in analysis.packages[component.name]?.targets ?? [] where target.declaration.kind == .regular {
                for file in target.files {
                    for route in file.routes {
                        guard let other = Self.overlap(of: route.pattern, plugin: component.name, with: routes) else { continue }
                        findings.append(
                            Diagnostic(
                                path: file.path, line: route.line, column: route.column,
                                message: Self.message(route.pattern, plugin: component.name, other: other),
                                fix: "give the plugin's routes URLs of their own (a host or first segment no other component uses)",
                                rule: "plugin-route-overlap"))
                    }
                }
            }
        }
        return findings
    }

    /// The routes the library code of every component declares, with their owners.
    static func routes(in analysis: WorkspaceAnalysis) -> [Declared] {
        let workspace = analysis.workspace
        return workspace.components.flatMap { component -> [Declared] in
            let owner = workspace.implementation(of: component.name)?.name ?? component.name
            return (analysis.packages[component.name]?.targets ?? []).filter { $0.declaration.kind == .regular }.flatMap { target in
                target.files.flatMap { file in
                    file.routes.map { Declared(owner: owner, pattern: $0.pattern, place: "\(file.path):\($0.line):\($0.column)") }
                }
            }
        }
    }

    /// The first route of another owner than `plugin` that some URL of `pattern` also matches.
    static func overlap(of pattern: String, plugin: String, with routes: [Declared]) -> Declared? {
        routes.first { $0.owner != plugin && RouteShape.overlaps(pattern, $0.pattern) }
    }

    /// The finding's words, naming both patterns.
    static func message(_ pattern: String, plugin: String, other: Declared) -> String {
        "route '\(pattern)' of runtime plugin '\(plugin)' matches URLs that '\(other.pattern)' of '\(other.owner)' (\(other.place)) matches: "
            + "one would answer the other's links"
    }
}
