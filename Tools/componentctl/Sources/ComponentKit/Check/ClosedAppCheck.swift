import Foundation

/// The closed-app check: a component of an app opens a typed route, or resolves a service, of a feature
/// the app does not contain, and the app declares nothing instead (`missing:`). Found from the sources:
/// routes and services are types of interface packages, so their uses can be found by name.
struct ClosedAppCheck {
    let analysis: WorkspaceAnalysis

    /// Every finding, in app order then file order.
    func findings() -> [Diagnostic] {
        let workspace = analysis.workspace
        guard !workspace.apps.isEmpty else { return [] }
        let index = AppUseScanner.Index(analysis)
        let shellSites = index.sites(in: shellFiles())
        let shell = AppPlan.shellComponents(analysis)
        var findings: [Diagnostic] = []
        for app in workspace.apps {
            let linked = AppPlan.closure(of: Set(app.componentNames), analysis).union(shell)
            var users: [(name: String, sites: [AppUseScanner.Site])] = [("the shell", shellSites)]
            for member in app.componentNames { users.append(("'\(member)'", index.sites(in: AppUseScanner.files(of: member, in: analysis)))) }
            for (user, sites) in users {
                for site in sites where !linked.contains(site.provider) && app.behaviour(for: site.provider) == nil {
                    let verb = site.use.isService ? "resolves the service" : "opens"
                    findings.append(
                        Diagnostic(
                            path: site.file, line: site.use.line, column: site.use.column,
                            message: "app '\(app.name)' contains \(user), which \(verb) \(site.use.name) (\(site.interface)) here, "
                                + "but its provider '\(site.provider)' is not in the app",
                            fix: "add '\(site.provider)' to the components of app '\(app.name)' in components.yaml, or declare what happens instead "
                                + "under its 'missing:' ('\(site.provider): not-in-app', or a web address)", rule: "closed-app"))
                }
            }
        }
        return findings
    }

    private func shellFiles() -> [(path: String, bytes: [UInt8])] {
        let folder = analysis.workspace.root.appendingPathComponent(AppPlan.shellFolder)
        return SwiftFiles.under(folder, skipping: []).compactMap { path in
            FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map { ("\(AppPlan.shellFolder)/\(path)", Array($0)) }
        }
    }
}
