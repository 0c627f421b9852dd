import Foundation

/// `componentctl sync`: brings the pinned checkouts, components.lock, the apps' wiring, the integrated
/// manifest and the CI workflow in line with components.yaml, all or nothing; with `check`, only reports
/// (exit 1 when anything is out of date). Each step adds its changes to one transaction.
public struct SyncService {
    private let context: VersionedWorkspace
    private let check: Bool
    private var transaction: WorkspaceTransaction
    private var lock = PinLock()
    private var changes: [String] = []
    private var warnings: [String] = []
    /// Checkouts staged in temporary folders, removed when the sync ends.
    private var staging: [URL] = []

    private var workspace: Workspace { context.workspace }
    private var root: URL { context.workspace.root }

    /// Syncs `context`'s workspace, or with `check` reports what a sync would change.
    public static func sync(_ context: VersionedWorkspace, check: Bool, faultPoint: (String) -> Void = { _ in }) throws -> CommandResult {
        var service = SyncService(context: context, check: check, transaction: WorkspaceTransaction(root: context.workspace.root, summary: "sync"))
        defer { for folder in service.staging { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) } }
        let recorded = try PinLock.loadValidated(context.workspace)
        try service.materializePins(recorded: recorded)
        service.removeStaleCheckouts()
        try service.writeLock(recorded: recorded)
        // The apps' wiring first: it decides which component packages the root names, the pins where they are.
        try service.regenerateWiring()
        try service.pointManifestAtCheckouts()
        try service.regenerateWorkflow()
        return try service.finish(faultPoint: faultPoint)
    }

    /// Each pin's checkout, materialized or restored from its tag (checked against components.lock).
    private mutating func materializePins(recorded: PinLock) throws {
        for component in workspace.components {
            guard let pin = component.pin, let version = SemanticVersion(pin) else { continue }
            lock.pins[component.name] = try checkout(of: component, at: version, recorded: recorded.pins[component.name])
        }
    }

    private mutating func checkout(of component: Component, at version: SemanticVersion, recorded: PinLock.Entry?) throws -> PinLock.Entry {
        let tag = "\(component.name)@\(version)"
        guard let resolved = try context.repository.resolveTag(tag) else {
            throw ToolError(
                "'\(component.name)' is pinned at \(version), but this clone has no tag \(tag). "
                    + context.fetchTagsAdvice + " Or unpin it: componentctl unpin \(component.name).", status: .environment)
        }
        var entry: PinLock.Entry
        if let locked = recorded, locked.version == version.description {
            guard locked.commit == resolved.commit.hex else {
                if let commit = GitOID(hex: locked.commit), !context.repository.containsCommit(commit) {
                    throw ToolError(
                        "components.lock: the entry for '\(component.name)' names the commit \(commit.short), which this repository "
                            + "does not have: the entry was edited, or comes from another repository. Restore the file (git checkout -- components.lock), "
                            + "or remove the entry and run 'componentctl sync'. Nothing was changed.", status: .usage)
                }
                throw ToolError(
                    "Tag \(tag) now points at \(resolved.commit.short), but components.lock pinned \(String(locked.commit.prefix(10))): "
                        + "the tag was moved. Check it with 'git show \(tag)'; if the move is intended, run "
                        + "'componentctl unpin \(component.name) && componentctl pin \(component.name) \(version)'.", status: .environment)
            }
            entry = locked
        } else {
            entry = try PinPlanner.plan(context, component: component, version: version).lockEntry
            changes.append("record \(tag) in components.lock")
        }
        if let problem = try PinPlanner.checkoutProblem(entry, of: component.name, root: root, repository: context.repository) {
            changes.append(problem == "missing" ? "materialize \(tag) at \(entry.checkout)" : "restore \(entry.checkout), \(problem), to \(tag)")
            if !check {
                let plan = try PinPlanner.plan(context, component: component, version: version)
                entry = plan.lockEntry
                let staged = try PinPlanner.stage(plan, context)
                staging.append(staged)
                if FileStatus.exists(root.appendingPathComponent(plan.pinFolder)) { transaction.remove(pinFolder: plan.pinFolder) }
                transaction.add(folder: staged, at: plan.pinFolder)
            }
        }
        return entry
    }

    /// Checkouts no pin names any more: componentctl's are removed, a folder of yours is named and left alone.
    private mutating func removeStaleCheckouts() {
        let expected = Set(lock.pins.values.map { PinLayout.pinFolder(ofCheckout: $0.checkout) })
        for stale in Self.pinFolders(workspace).subtracting(expected).sorted() {
            if PinCheckout.isMarked(pinFolder: stale, root: root) {
                changes.append("remove the stale checkout \(stale)")
                transaction.remove(pinFolder: stale)
            } else {
                warnings.append(
                    "warning: '\(stale)' is named like a pinned checkout, but componentctl did not make it "
                        + "(no \(PinCheckout.markerName) marker), so it is left alone. Rename it if it is yours.\n")
            }
        }
    }

    private mutating func writeLock(recorded: PinLock) throws {
        guard lock != recorded else { return }
        if lock.pins.keys.sorted() != recorded.pins.keys.sorted() || changes.isEmpty { changes.append("update components.lock") }
        transaction.write(PinLock.fileName, try lock.encoded())
    }

    private mutating func regenerateWiring() throws {
        let wiring = try AppWiring.update(&transaction, yaml: workspace.fileBytes, root: root)
        guard !wiring.isEmpty else { return }
        changes.append(
            "regenerate the apps' wiring from components.yaml and the sources: \(wiring.joined(separator: ", "))"
                + Self.movedContent(wiring, transaction, workspace))
    }

    private mutating func pointManifestAtCheckouts() throws {
        let manifest = PinService.manifest
        let pending = transaction.pendingWrite(manifest)
        let current = pending ?? FileManager.default.contents(atPath: root.appendingPathComponent(manifest).path).map { Array($0) } ?? []
        // A repository that assembles its apps elsewhere (an Xcode project) has no root package to point at components.
        let assemblesHere = !current.isEmpty || !workspace.apps.isEmpty || !lock.pins.isEmpty
        let regenerated = assemblesHere ? try PinService.regeneratedManifest(workspace, lock: lock, text: pending) : current
        guard current != regenerated else { return }
        let foreign = RootManifest.foreignLines(in: String(decoding: current, as: UTF8.self), workspace: workspace)
        changes.append(
            foreign.isEmpty
                ? "point Package.swift at the pinned checkouts"
                : "rewrite or drop the lines of Package.swift's generated block that componentctl did not write (keep your own "
                    + "lines outside the block): " + foreign.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
        transaction.write(manifest, regenerated)
    }

    /// The CI workflow, once a team has one: its generated jobs follow the apps of components.yaml.
    private mutating func regenerateWorkflow() throws {
        guard FileStatus.exists(root.appendingPathComponent(GitHubWorkflow.path)), let workflow = try CIService.stale(workspace).regenerated else { return }
        changes.append("regenerate the jobs of \(GitHubWorkflow.path)")
        transaction.write(GitHubWorkflow.path, Array(workflow.utf8))
    }

    private func finish(faultPoint: (String) -> Void) throws -> CommandResult {
        let pins = "\(lock.pins.count) pin\(lock.pins.count == 1 ? "" : "s")"
        if check {
            guard !changes.isEmpty else { return CommandResult(output: "In sync: \(pins).\n", errors: warnings.joined()) }
            return CommandResult(
                output: "Out of date; run 'componentctl sync' to:\n" + changes.map { "  - \($0)\n" }.joined(),
                errors: warnings.joined(), status: .findings)
        }
        guard !transaction.isEmpty else { return CommandResult(output: "Already in sync: \(pins).\n", errors: warnings.joined()) }
        try transaction.commit(repository: nil, faultPoint: faultPoint)
        return CommandResult(output: "Synced:\n" + changes.map { "  - \($0)\n" }.joined(), errors: warnings.joined())
    }

    /// Which components' content changed since `paths` of the wiring recorded it, as a clause of the change.
    private static func movedContent(_ paths: [String], _ transaction: WorkspaceTransaction, _ workspace: Workspace) -> String {
        var moved = Set<String>()
        for path in paths where path.hasSuffix("/GeneratedApp.swift") {
            guard let new = transaction.pendingWrite(path),
                let old = FileManager.default.contents(atPath: workspace.root.appendingPathComponent(path).path)
            else { continue }
            let recorded = AppSources.recordedKeys(in: Array(old))
            moved.formUnion(AppSources.recordedKeys(in: new).filter { recorded[$0.key] != nil && recorded[$0.key] != $0.value }.keys)
        }
        guard !moved.isEmpty else { return "" }
        let names = moved.sorted()
        return " (the content of \(names.prefix(8).joined(separator: ", "))\(names.count > 8 ? " and \(names.count - 8) more" : "") changed: "
            + "the wiring records the content key of each component it links, which runtime plugins are checked against)"
    }

    /// The `.pin-*` folders on disk beside the components' layer folders.
    private static func pinFolders(_ workspace: Workspace) -> Set<String> {
        var parents = Set<String>()
        for component in workspace.components {
            var parts = component.path.split(separator: "/").map(String.init)
            while parts.count > 1 {
                parts.removeLast()
                parents.insert(parts.dropLast().joined(separator: "/"))
            }
        }
        var found = Set<String>()
        for parent in parents {
            let folder = parent.isEmpty ? workspace.root : workspace.root.appendingPathComponent(parent)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(".pin-") {
                found.insert(parent.isEmpty ? name : parent + "/" + name)
            }
        }
        return found
    }
}
