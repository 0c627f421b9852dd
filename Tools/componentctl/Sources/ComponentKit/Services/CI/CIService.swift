import Foundation

/// `componentctl ci github`: writes or updates the workflow, or says whether it is up to date.
public enum CIService {
    /// Writes the GitHub Actions workflow (its generated jobs only, when it exists); with `check`, exit 1 when stale.
    public static func github(_ workspace: Workspace, check: Bool) throws -> CommandResult {
        let url = workspace.root.appendingPathComponent(GitHubWorkflow.path)
        let current = try stale(workspace)
        guard let regenerated = current.regenerated else { return CommandResult(output: "\(GitHubWorkflow.path) is up to date.\n") }
        if check {
            return CommandResult(output: "\(GitHubWorkflow.path) is out of date; run 'componentctl ci github'.\n", status: .findings)
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(regenerated.utf8), to: url)
        return CommandResult(
            output: (current.existed ? "Updated the generated jobs of " : "Wrote ") + GitHubWorkflow.path
                + " (affected components, one job each with its results cached by key, then the checks and the apps).\n")
    }

    /// The workflow's text when it differs from what components.yaml gives (nil: up to date), and whether a file exists.
    static func stale(_ workspace: Workspace) throws -> (regenerated: String?, existed: Bool) {
        let url = workspace.root.appendingPathComponent(GitHubWorkflow.path)
        if FileStatus.isRealFolder(url) {
            throw ToolError("\(GitHubWorkflow.path) is a folder, not a file. Move it away, then run 'componentctl ci github' again.", status: .usage)
        }
        let data = FileManager.default.contents(atPath: url.path)
        guard let data else { return (try GitHubWorkflow.regenerated(nil, workspace: workspace), false) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ToolError("\(GitHubWorkflow.path) is not UTF-8 text, so componentctl cannot rewrite its generated jobs.", status: .usage)
        }
        let regenerated = try GitHubWorkflow.regenerated(text, workspace: workspace)
        return (regenerated == text ? nil : regenerated, true)
    }
}
