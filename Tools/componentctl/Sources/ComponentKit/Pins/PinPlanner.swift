public import Foundation

/// What pinning a component at a release means: the commit, the tree, the checkout's place.
public struct PinPlan: Sendable {
    /// The component.
    public var component: Component
    /// The release.
    public var release: Release
    /// The component's tree at the release.
    public var tree: GitOID
    /// The pinned version's manifest.
    public var manifest: PackageManifest
    /// The checkout of the component's folder, relative to the workspace root.
    public var checkout: String

    /// The folder holding the checkout (what is created and removed).
    public var pinFolder: String { PinLayout.pinFolder(ofCheckout: checkout) }

    /// The lock entry this plan records.
    public var lockEntry: PinLock.Entry {
        PinLock.Entry(version: release.version.description, tag: release.tag, commit: release.resolved.commit.hex, tree: tree.hex, checkout: checkout)
    }
}

/// Resolves, stages and checks pins.
public enum PinPlanner {
    /// Resolves `component@version` and reads the manifest it had.
    public static func plan(_ context: VersionedWorkspace, component: Component, version: SemanticVersion) throws -> PinPlan {
        let releases = try context.releases(of: component)
        guard let release = releases.first(where: { $0.version == version && $0.version.description == version.description }) else {
            if let near = releases.first(where: { $0.version == version }) {
                throw ToolError(
                    "There is no tag \(component.name)@\(version); \(component.name) \(near.version.description.split(separator: "+")[0]) "
                        + "was released as \(near.tag). Pin it by its full version: componentctl pin \(component.name) \(near.version).", status: .usage)
            }
            if let kind = context.repository.kindOfTagTarget("\(component.name)@\(version)") {
                throw ToolError(
                    "The tag \(component.name)@\(version) names a \(kind), not a commit, so it is no release. Inspect it with "
                        + "'git cat-file -p \(component.name)@\(version)'; if it is a mistake, delete it (git tag -d \(component.name)@\(version)) "
                        + "and release again: componentctl release \(component.name) \(version).", status: .usage)
            }
            let known = releases.map(\.version.description)
            throw ToolError(
                "'\(component.name)' has no release \(version) in this clone (no tag \(component.name)@\(version)). "
                    + (known.isEmpty ? "" : "Released here: \(known.joined(separator: ", ")). ")
                    + context.fetchTagsAdvice + " To make that release from this commit: componentctl release \(component.name) \(version).",
                status: .usage)
        }
        let path = context.repositoryPath(of: component)
        guard let tree = try context.repository.tree(of: release.resolved.commit, path: path),
            let bytes = try context.repository.file(at: path + "/Package.swift", in: release.resolved.commit)
        else {
            throw ToolError(
                "\(release.tag) has no package at '\(component.path)': the component was moved since. "
                    + "Pin a release made after the move.", status: .usage)
        }
        let manifest: PackageManifest
        do {
            manifest = try context.workspace.manifests.load(bytes, folder: context.workspace.root.appendingPathComponent(component.path))
        } catch {
            throw ToolError("The Package.swift of \(release.tag) cannot be read (\(error)); pin another release.", status: .usage)
        }
        let checkout = try PinLayout.checkoutPath(
            for: component, version: version.description, dependencyPaths: manifest.dependencies.compactMap(\.path))
        return PinPlan(component: component, release: release, tree: tree, manifest: manifest, checkout: checkout)
    }

    /// Materializes the plan's tree into a staging folder laid out like the pin folder; returns it.
    public static func stage(_ plan: PinPlan, _ context: VersionedWorkspace) throws -> URL {
        let staging = try WorkspaceTransaction.stagingFolder(root: context.workspace.root)
        let pinFolder = staging.appendingPathComponent((plan.pinFolder as NSString).lastPathComponent)
        let inside = String(plan.checkout.dropFirst(plan.pinFolder.count + 1))
        let target = pinFolder.appendingPathComponent(inside)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try context.repository.materialize(tree: plan.tree, into: target)
        let marker = try PinCheckout.markerBytes(component: plan.component.name, version: plan.release.version.description, tree: plan.tree.hex)
        try marker.write(to: pinFolder.appendingPathComponent(PinCheckout.markerName))
        return pinFolder
    }

    /// What is wrong with the checkout of `entry` on disk: nil when it holds exactly the entry's tree, else
    /// a reason ("missing", or the paths that differ, compared by git object id).
    public static func checkoutProblem(_ entry: PinLock.Entry, of name: String, root: URL, repository: GitRepository) throws -> String? {
        let pinFolder = PinLayout.pinFolder(ofCheckout: entry.checkout)
        guard let marker = PinCheckout.marker(ofPinFolder: pinFolder, root: root), marker.component == name, marker.tree == entry.tree,
            let tree = GitOID(hex: entry.tree)
        else { return "missing" }
        let differences = try repository.differences(between: tree, and: root.appendingPathComponent(entry.checkout))
        guard !differences.isEmpty else { return nil }
        return "edited (" + differences.prefix(5).joined(separator: ", ") + (differences.count > 5 ? ", and \(differences.count - 5) more" : "") + ")"
    }

    /// Components that depend on `component` in the live workspace: pinning it would give SwiftPM two
    /// packages of one identity, and it silently replaces one with the other.
    public static func refuseIfDependedOn(_ component: Component, analysis: WorkspaceAnalysis) throws {
        let dependents = DependencyGraph(analysis: analysis).dependents(of: [component.name]).sorted()
        guard dependents.isEmpty else {
            throw ToolError(
                "Cannot pin '\(component.name)': \(dependents.joined(separator: ", ")) depend\(dependents.count == 1 ? "s" : "") on it. "
                    + "SwiftPM identifies a package by its folder name, so the integrated build would see two packages named "
                    + "'\(component.folderName)' and silently keep only one. Pin components nothing else depends on (business implementations).",
                status: .usage)
        }
    }

    /// Everything about the pinned version the live workspace no longer satisfies; empty when compatible.
    public static func incompatibilities(_ plan: PinPlan, staged: URL, context: VersionedWorkspace, analysis: WorkspaceAnalysis) throws -> [String] {
        var problems: [String] = []
        let workspace = context.workspace
        let evaluator = LayerRulesEvaluator(workspace: workspace)
        let tag = plan.release.tag
        let oldVersions = try versionsAtRelease(plan, context)
        var providedModules = Set(plan.manifest.targets.map(\.name))
        for dependency in plan.manifest.dependencies {
            guard let path = dependency.path else {
                providedModules.formUnion(
                    plan.manifest.targets.flatMap(\.dependencies).compactMap { reference in
                        if case .product(let name, let package) = reference.reference, package.lowercased() == dependency.identity { return name }
                        return nil
                    })
                continue
            }
            let resolved = URL(fileURLWithPath: path, relativeTo: workspace.folder(of: plan.component)).standardizedFileURL.path
            guard let target = workspace.components.first(where: { workspace.folder(of: $0).standardizedFileURL.path == resolved }) else {
                problems.append("\(tag) depends on '\(path)', which is no longer a component of the workspace")
                continue
            }
            providedModules.formUnion(analysis.packages[target.name]?.modules ?? [])
            if let violation = evaluator.violation(from: plan.component, to: target) {
                problems.append("\(tag) depends on '\(target.name)', which the current rules forbid: \(violation.message) [\(violation.rule)]")
            }
            if target.kind == .interface {
                // An interface's version number is a promise; its API, built as the release saw it and as it is now, is the fact.
                let diff = try APIDiffService.compare(
                    context, component: target,
                    from: .commit(plan.release.resolved.commit, label: "\(target.name) as \(tag) was built against it", version: nil),
                    to: .workingTree)
                if !diff.breaking.isEmpty {
                    problems.append(
                        "\(tag) was built against \(target.name) as it was then, whose API has changed since in ways the release cannot use: "
                            + diff.breaking.joined(separator: "; "))
                }
            } else if let then = oldVersions[target.name].flatMap(SemanticVersion.init), let now = target.version.flatMap(SemanticVersion.init),
                !(now >= then && (then.major > 0 ? now.major == then.major : now.minor == then.minor))
            {
                problems.append("\(tag) was built against \(target.name) \(then); the workspace has \(now), which is not compatible")
            }
            let liveProducts = Set(analysis.packages[target.name]?.manifest?.products.map(\.name) ?? [])
            for reference in plan.manifest.targets.flatMap(\.dependencies) {
                guard case .product(let name, let package) = reference.reference, package.lowercased() == target.folderName.lowercased() else { continue }
                if !liveProducts.contains(name) {
                    problems.append("\(tag) uses product '\(name)' of '\(target.name)', which the live package no longer has")
                }
            }
        }
        for (file, module) in try imports(in: staged) where !providedModules.contains(module) && !LayerChecker.systemModules.contains(module) {
            problems.append("\(tag) imports \(module) in \(file), which none of its dependencies provides any more")
        }
        return problems
    }

    /// The versions components.yaml gave every component at the release's commit.
    private static func versionsAtRelease(_ plan: PinPlan, _ context: VersionedWorkspace) throws -> [String: String] {
        guard let bytes = try context.repository.file(at: context.repositoryPath(WorkspaceLoader.fileName), in: plan.release.resolved.commit),
            case .mapping(let top, _, _)? = try? YAMLLoader.load(bytes, path: WorkspaceLoader.fileName),
            case .mapping(let components, _, _)? = top.first(where: { $0.key.value == "components" })?.value
        else { return [:] }
        var versions: [String: String] = [:]
        for (key, value) in components {
            guard case .mapping(let fields, _, _) = value, case .scalar(let version)? = fields.first(where: { $0.key.value == "version" })?.value else {
                continue
            }
            versions[key.value] = version.value
        }
        return versions
    }

    private static func imports(in folder: URL) throws -> [(String, String)] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [(String, String)] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasSuffix("Package.swift"),
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path)
            else { continue }
            for declaration in ImportScanner.imports(in: Array(data)) where !declaration.isGuardedByCanImport {
                found.append((path, declaration.module))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
