public import Foundation

/// How every command reaches the workspace: first rolling back a change an interrupted run left
/// half-done, then loading it, under the workspace lock when the command changes it.
public enum WorkspaceAccess {
    /// Loads the workspace at `root` for a command that only reads it. A pending rollback runs first when
    /// the lock is free; when it cannot run (a stale git lock), the command still reads the workspace as
    /// it is, and `report` gets a warning saying why. `report` also gets the note of a rollback done.
    public static func read(root: URL, report: (String) -> Void) throws -> Workspace {
        if let lock = try? WorkspaceLock(root: root) {
            withExtendedLifetime(lock) {
                do {
                    try recover(root: root, report: report)
                } catch {
                    report("warning: \(ToolError.describe(error))\nwarning: showing the workspace as it is on disk, before the rollback.\n")
                }
            }
        }
        return try WorkspaceLoader.load(root: root)
    }

    /// Runs `body` on the workspace at `root` and its repository, holding the workspace lock, after any
    /// pending rollback (whose note goes to `report`; one that cannot run stops the command).
    public static func change(root: URL, report: (String) -> Void, _ body: (VersionedWorkspace) throws -> CommandResult) throws -> CommandResult {
        let lock = try WorkspaceLock(root: root)
        defer { withExtendedLifetime(lock) {} }
        try recover(root: root, report: report)
        return try body(try VersionedWorkspace(WorkspaceLoader.load(root: root)))
    }

    /// Rolls back a change an interrupted run left half-done, telling `report` what was undone.
    private static func recover(root: URL, report: (String) -> Void) throws {
        if let note = try WorkspaceTransaction.recoverIfNeeded(root: root, repository: { try GitRepository(containing: root) }) {
            report("note: \(note)\n")
        }
    }
}
