import Foundation

/// `componentctl pin` and `unpin`.
public enum PinService {
    /// The integrated manifest's name in the workspace root.
    static let manifest = "Package.swift"

    /// Pins `name` at `version`: checks, then writes components.yaml, components.lock, the checkout
    /// and the integrated manifest's block, all or nothing.
    public static func pin(
        _ context: VersionedWorkspace, name: String, version text: String, dryRun: Bool, faultPoint: (String) -> Void = { _ in }
    ) throws -> CommandResult {
        let component = try context.component(name)
        let version = try VersionedWorkspace.version(text)
        let analysis = try WorkspaceAnalysis.analyze(context.workspace)
        try PinPlanner.refuseIfDependedOn(component, analysis: analysis)
        let plan = try PinPlanner.plan(context, component: component, version: version)
        let staged = try PinPlanner.stage(plan, context)
        defer { try? FileManager.default.removeItem(at: staged.deletingLastPathComponent()) }
        let problems = try PinPlanner.incompatibilities(plan, staged: staged, context: context, analysis: analysis)
        guard problems.isEmpty else {
            throw ToolError(
                "Cannot pin \(name) \(version); the live workspace no longer satisfies it:\n"
                    + problems.map { "  - \($0)" }.joined(separator: "\n") + "\nNothing was changed.", status: .usage)
        }
        let summary = "\(name) \(version) (\(plan.release.tag), commit \(plan.release.resolved.commit.short)) at \(plan.checkout)"
        var lock = try PinLock.loadValidated(context.workspace)
        if dryRun { return CommandResult(output: "Would pin \(summary). Nothing was changed (--dry-run).\n") }

        let root = context.workspace.root
        let previous = lock.pins[name]
        lock.pins[name] = plan.lockEntry
        var transaction = WorkspaceTransaction(root: root, summary: "pin \(name) \(version)")
        let yaml = try ComponentsFileEditor.setting("pin", to: version.description, of: name, in: context.workspace)
        transaction.write(WorkspaceLoader.fileName, yaml)
        transaction.write(PinLock.fileName, try lock.encoded())
        transaction.write(manifest, try regeneratedManifest(context.workspace, lock: lock))
        try AppWiring.update(&transaction, yaml: yaml, root: root)
        let previousFolder = previous.map { PinLayout.pinFolder(ofCheckout: $0.checkout) }
        for folder in Set([previousFolder, plan.pinFolder].compactMap { $0 }).sorted() where FileStatus.exists(root.appendingPathComponent(folder)) {
            transaction.remove(pinFolder: folder)
        }
        transaction.add(folder: staged, at: plan.pinFolder)
        try transaction.commit(repository: context.repository, faultPoint: faultPoint)
        return CommandResult(output: "Pinned \(summary). The integrated build now uses it; everything else stays live.\n")
    }

    /// Unpins `name`: the integrated build uses the live folder again.
    public static func unpin(_ context: VersionedWorkspace, name: String, faultPoint: (String) -> Void = { _ in }) throws -> CommandResult {
        let component = try context.component(name)
        let root = context.workspace.root
        var lock = try PinLock.loadValidated(context.workspace)
        let entry = lock.pins.removeValue(forKey: name)
        guard component.pin != nil || entry != nil else {
            return CommandResult(output: "'\(name)' is not pinned; nothing to do.\n")
        }
        var transaction = WorkspaceTransaction(root: root, summary: "unpin \(name)")
        let yaml = try ComponentsFileEditor.removing("pin", of: name, in: context.workspace)
        transaction.write(WorkspaceLoader.fileName, yaml)
        transaction.write(PinLock.fileName, try lock.encoded())
        transaction.write(manifest, try regeneratedManifest(context.workspace, lock: lock))
        try AppWiring.update(&transaction, yaml: yaml, root: root)
        if let entry, FileStatus.exists(root.appendingPathComponent(PinLayout.pinFolder(ofCheckout: entry.checkout))) {
            transaction.remove(pinFolder: PinLayout.pinFolder(ofCheckout: entry.checkout))
        }
        try transaction.commit(repository: nil, faultPoint: faultPoint)
        return CommandResult(output: "Unpinned \(name): the integrated build uses \(component.path) again.\n")
    }

    /// Package.swift (`text`, else the file) with the components block pointing where the pins say.
    static func regeneratedManifest(_ workspace: Workspace, lock: PinLock, text pending: [UInt8]? = nil) throws -> [UInt8] {
        let url = workspace.root.appendingPathComponent(manifest)
        guard let data = pending.map({ Data($0) }) ?? FileManager.default.contents(atPath: url.path) else {
            throw ToolError("The workspace has no integrated Package.swift at \(url.path).", status: .usage)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ToolError(
                "\(url.path) is not UTF-8 text, so componentctl cannot rewrite its generated block. Restore it (git checkout -- Package.swift).",
                status: .usage)
        }
        return Array(try RootManifest.regenerate(text, workspace: workspace, checkouts: lock.pins.mapValues(\.checkout)).utf8)
    }
}
