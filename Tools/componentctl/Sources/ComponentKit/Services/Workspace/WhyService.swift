/// `componentctl why FROM TO`: the shortest dependency chain, with the imports that use each edge.
public enum WhyService {
    /// The chain from `from` to `to` as text; exit 1 when there is none.
    public static func run(_ workspace: Workspace, from: String, to: String) throws -> CommandResult {
        for name in [from, to] where workspace.component(named: name) == nil { throw workspace.unknownComponent(name) }
        let analysis = try WorkspaceAnalysis.analyze(workspace)
        guard let path = DependencyGraph(analysis: analysis).shortestPath(from: from, to: to), path.count > 1 else {
            // A manifest that could not be read has no edges: "does not depend" would be a guess.
            let unread = analysis.unreadableComponents
            guard unread.isEmpty else {
                return CommandResult(
                    output: "No chain from '\(from)' to '\(to)' was found, but the manifest\(unread.count == 1 ? " of" : "s of") "
                        + unread.map { "'\($0)'" }.joined(separator: ", ") + " could not be read, so one may exist; 'componentctl check-layers' says why.\n",
                    status: .findings)
            }
            return CommandResult(output: "'\(from)' does not depend on '\(to)', directly or through other components.\n", status: .findings)
        }
        var lines = [path.joined(separator: " -> ")]
        for (source, target) in zip(path, path.dropFirst()) {
            guard let package = analysis.packages[source], let edge = package.edges.first(where: { $0.to == target }) else { continue }
            lines.append("  \(source) -> \(target)  (\(package.manifestPath):\(edge.location.line):\(edge.location.column))")
            let modules = Set(analysis.packages[target]?.modules ?? [])
            let sites = package.targets.flatMap { target in
                target.files.flatMap { file in
                    file.imports.filter { modules.contains($0.module) }.map { "      import \($0.path)  \(file.path):\($0.line):\($0.column)" }
                }
            }
            lines += sites.isEmpty ? ["      (declared, but no source imports it)"] : sites
        }
        return CommandResult(output: lines.joined(separator: "\n") + "\n")
    }
}
