import Foundation

/// `componentctl pin`, `unpin` and `sync`.
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

    /// Brings checkouts, components.lock and the integrated manifest in line with components.yaml's
    /// pins (what a fresh clone runs before building); with `check`, only reports (exit 1 when out of date).
    public static func sync(_ context: VersionedWorkspace, check: Bool, faultPoint: (String) -> Void = { _ in }) throws -> CommandResult {
        let workspace = context.workspace
        let root = workspace.root
        let lock = try PinLock.loadValidated(workspace)
        var newLock = PinLock()
        var changes: [String] = []
        var warnings: [String] = []
        var transaction = WorkspaceTransaction(root: root, summary: "sync")
        var staging: [URL] = []
        defer { for folder in staging { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) } }

        for component in workspace.components {
            guard let pin = component.pin, let version = SemanticVersion(pin) else { continue }
            let tag = "\(component.name)@\(version)"
            guard let resolved = try context.repository.resolveTag(tag) else {
                throw ToolError(
                    "'\(component.name)' is pinned at \(version), but this clone has no tag \(tag). "
                        + context.fetchTagsAdvice + " Or unpin it: componentctl unpin \(component.name).", status: .environment)
            }
            var entry: PinLock.Entry
            if let locked = lock.pins[component.name], locked.version == version.description {
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
            newLock.pins[component.name] = entry
        }
        let expected = Set(newLock.pins.values.map { PinLayout.pinFolder(ofCheckout: $0.checkout) })
        for stale in pinFolders(workspace).subtracting(expected).sorted() {
            if PinCheckout.isMarked(pinFolder: stale, root: root) {
                changes.append("remove the stale checkout \(stale)")
                transaction.remove(pinFolder: stale)
            } else {
                warnings.append(
                    "warning: '\(stale)' is named like a pinned checkout, but componentctl did not make it "
                        + "(no \(PinCheckout.markerName) marker), so it is left alone. Rename it if it is yours.\n")
            }
        }
        if newLock != lock {
            if newLock.pins.keys.sorted() != lock.pins.keys.sorted() || changes.isEmpty { changes.append("update components.lock") }
            transaction.write(PinLock.fileName, try newLock.encoded())
        }
        // The apps' wiring first: it decides which component packages the root names, the pins where they are.
        let wiring = try AppWiring.update(&transaction, yaml: workspace.fileBytes, root: root)
        if !wiring.isEmpty {
            changes.append(
                "regenerate the apps' wiring from components.yaml and the sources: \(wiring.joined(separator: ", "))"
                    + movedContent(wiring, transaction, workspace))
        }
        let pending = transaction.pendingWrite(manifest)
        let current = pending ?? FileManager.default.contents(atPath: root.appendingPathComponent(manifest).path).map { Array($0) } ?? []
        // A repository that assembles its apps elsewhere (an Xcode project) has no root package to point at components.
        let assemblesHere = !current.isEmpty || !workspace.apps.isEmpty || !newLock.pins.isEmpty
        let regenerated = assemblesHere ? try regeneratedManifest(workspace, lock: newLock, text: pending) : current
        if current != regenerated {
            let foreign = RootManifest.foreignLines(in: String(decoding: current, as: UTF8.self), workspace: workspace)
            changes.append(
                foreign.isEmpty
                    ? "point Package.swift at the pinned checkouts"
                    : "rewrite or drop the lines of Package.swift's generated block that componentctl did not write (keep your own "
                        + "lines outside the block): " + foreign.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
            transaction.write(manifest, regenerated)
        }
        // The CI workflow, once a team has one: its generated jobs follow the apps of components.yaml.
        if FileStatus.exists(root.appendingPathComponent(GitHubWorkflow.path)), let workflow = try CIService.stale(workspace).regenerated {
            changes.append("regenerate the jobs of \(GitHubWorkflow.path)")
            transaction.write(GitHubWorkflow.path, Array(workflow.utf8))
        }
        let pins = "\(newLock.pins.count) pin\(newLock.pins.count == 1 ? "" : "s")"
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

    /// Package.swift (`text`, else the file) with the components block pointing where the pins say.
    private static func regeneratedManifest(_ workspace: Workspace, lock: PinLock, text pending: [UInt8]? = nil) throws -> [UInt8] {
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
