/// Routes a component's library code declares or registers must use the workspace's scheme
/// (components.yaml's `workspace.scheme`): a route of another scheme (`evil://steal/:token`) is a door no
/// one reviews, and `http`/`https` belong to the App's web container, which no component may claim.
/// The App refuses such a registration at run time as well.
struct RouteSchemeCheck {
    let analysis: WorkspaceAnalysis

    func findings() -> [Diagnostic] {
        let scheme = analysis.workspace.scheme.lowercased()
        var findings: [Diagnostic] = []
        for component in analysis.workspace.components {
            for target in analysis.packages[component.name]?.targets ?? [] where target.declaration.kind == .regular {
                for file in target.files {
                    for route in file.routes {
                        guard let separator = route.pattern.range(of: "://") else { continue }
                        let used = route.pattern[..<separator.lowerBound].lowercased()
                        guard used != scheme else { continue }
                        let web = used == "http" || used == "https"
                        findings.append(
                            Diagnostic(
                                path: file.path, line: route.line, column: route.column,
                                message: "route '\(route.pattern)' of '\(component.name)' uses the scheme '\(used)'"
                                    + (web ? ", which belongs to the App's web container" : ", not the workspace's '\(scheme)'"),
                                fix: web
                                    ? "open web pages through the web container (router.open(\"https://...\")); register an app route of '\(scheme)://' for the screen"
                                    : "write it as '\(scheme)://\(route.pattern[separator.upperBound...])', or change workspace.scheme in components.yaml",
                                rule: "route-scheme"))
                    }
                }
            }
        }
        return findings
    }
}
