import Foundation

/// What changed in a component's public API between two versions, and the smallest version that allows it.
public struct APIDiff: Sendable, Encodable {
    /// The component.
    public var component: String
    /// The version compared from.
    public var from: String
    /// The version compared to, or "the working tree".
    public var to: String
    /// The breaking changes, in the API digester's words.
    public var breaking: [String]
    /// How many public declarations were added.
    public var added: Int
    /// The smallest version after `from` that allows these changes (semantic versioning; below 1.0.0 a
    /// breaking change needs a minor release).
    public var smallestVersion: String?
}

/// `componentctl api-diff`, and the checks of `release` and `pin` built on it: two versions of a component
/// built and their public APIs compared with the toolchain's API digester.
public enum APIDiffService {
    /// One side of a comparison.
    enum Side {
        /// The component as it was at a commit (a release's, or the one a pinned release was built with),
        /// from git objects; `label` names it in messages.
        case commit(GitOID, label: String, version: SemanticVersion?)
        /// The component's folder as it is now.
        case workingTree

        /// A release of the component.
        static func release(_ release: Release) -> Side { .commit(release.resolved.commit, label: release.version.description, version: release.version) }
    }

    /// The API of `name` from release `from` (default: its newest) to release `to` (default: the working tree).
    public static func diff(_ context: VersionedWorkspace, name: String, from: String?, to: String?) throws -> APIDiff {
        let component = try context.component(name)
        let releases = try context.releases(of: component)
        func release(_ text: String) throws -> Release {
            let version = try VersionedWorkspace.version(text)
            // Exactly, build metadata included, as `pin` matches: 1.4.0+build.7 is not 1.4.0.
            guard let found = releases.first(where: { $0.version == version && $0.version.build == version.build }) else {
                let known = releases.map(\.version.description)
                throw ToolError(
                    "'\(name)' has no release \(text) (no tag \(name)@\(text)). "
                        + (known.isEmpty ? "It has no releases yet. " : "Released: \(known.joined(separator: ", ")). ") + context.fetchTagsAdvice,
                    status: .usage)
            }
            return found
        }
        let old: Release
        if let from {
            old = try release(from)
        } else {
            guard let newest = releases.first else {
                throw ToolError(
                    "'\(name)' has no releases to compare with. Release it first (componentctl release \(name) 1.0.0), or name a version with --from.",
                    status: .usage)
            }
            old = newest
        }
        return try compare(context, component: component, from: .release(old), to: try to.map { .release(try release($0)) } ?? .workingTree)
    }

    /// Compares two sides of `component`; a side whose tree is the other's is not built at all.
    static func compare(_ context: VersionedWorkspace, component: Component, from: Side, to: Side) throws -> APIDiff {
        let digester = APIDigester(root: context.workspace.root)
        let fromSource = try source(from, of: component, context)
        let toSource = try source(to, of: component, context)
        var diff = APIDiff(component: component.name, from: fromSource.label, to: toSource.label, breaking: [], added: 0)
        if let a = fromSource.tree, let b = toSource.tree, a == b {
            diff.smallestVersion = fromSource.version.map { bumped($0, breaking: false, added: false).description }
            return diff
        }
        let modules = APIDigester.publicModules(of: fromSource.manifest)
        let old = try fromSource.withFolder { folder in
            try digester.dump(package: folder, modules: modules, component: component.name, label: fromSource.label, key: fromSource.tree)
        }
        let new = try toSource.withFolder { folder in
            try digester.dump(
                package: folder, modules: APIDigester.publicModules(of: toSource.manifest), component: component.name, label: toSource.label,
                key: toSource.tree)
        }
        (diff.breaking, diff.added) = try digester.compare(old, new)
        diff.smallestVersion = fromSource.version.map { bumped($0, breaking: !diff.breaking.isEmpty, added: diff.added > 0).description }
        return diff
    }

    /// The smallest version after `version` for changes that break, or only add.
    static func bumped(_ version: SemanticVersion, breaking: Bool, added: Bool) -> SemanticVersion {
        var next = version
        next.prerelease = []
        next.build = nil
        if breaking, version.major > 0 {
            (next.major, next.minor, next.patch) = (version.major + 1, 0, 0)
        } else if breaking || added {
            (next.minor, next.patch) = (version.minor + 1, 0)
        } else {
            next.patch = version.patch + 1
        }
        return next
    }

    /// Where a side's sources are, what its manifest says, and its tree id when it is one of git's.
    struct Source {
        var label: String
        var version: SemanticVersion?
        var tree: String?
        var manifest: PackageManifest
        var withFolder: (_ body: (URL) throws -> APIDump) throws -> APIDump
    }

    private static func source(_ side: Side, of component: Component, _ context: VersionedWorkspace) throws -> Source {
        let root = context.workspace.root
        switch side {
        case .commit(let commit, let label, let version):
            let path = context.repositoryPath(of: component)
            guard let tree = try context.repository.tree(of: commit, path: path),
                let bytes = try context.repository.file(at: path + "/Package.swift", in: commit)
            else {
                throw ToolError("'\(component.path)' holds no package at \(label); it was moved or added since.", status: .usage)
            }
            let manifest: PackageManifest
            do {
                manifest = try context.workspace.manifests.load(bytes, folder: context.workspace.folder(of: component))
            } catch {
                throw ToolError("The Package.swift of \(component.name) at \(label) cannot be read (\(error)).", status: .usage)
            }
            // At the pin layout's depth, so the old tree's relative dependencies reach the live packages.
            let scratchVersion = "api-\(tree.hex.prefix(12))"
            let checkoutPath = try PinLayout.checkoutPath(for: component, version: scratchVersion, dependencyPaths: manifest.dependencies.compactMap(\.path))
            return Source(
                label: label, version: version, tree: tree.hex, manifest: manifest,
                withFolder: { body in
                    try PinCheckout.withScratchCheckout(
                        folder: PinLayout.pinFolder(ofCheckout: checkoutPath), checkout: checkoutPath, component: component.name, version: scratchVersion,
                        tree: tree, root: root, repository: context.repository, body)
                })
        case .workingTree:
            let folder = context.workspace.folder(of: component)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) else {
                throw ToolError("'\(component.path)' has no Package.swift.", status: .usage)
            }
            let manifest: PackageManifest
            do {
                manifest = try context.workspace.manifests.load(packageIn: folder)
            } catch {
                throw ToolError("The Package.swift of '\(component.name)' cannot be read (\(error)).", status: .usage)
            }
            // Unchanged since the last commit: it is that commit's tree, whose dump may be kept already.
            let head = try context.repository.headCommit()
            var tree = try context.repository.tree(of: head, path: context.repositoryPath(of: component))
            if let known = tree, try !context.repository.differences(between: known, and: folder).isEmpty { tree = nil }
            return Source(label: "the working tree", version: nil, tree: tree?.hex, manifest: manifest, withFolder: { body in try body(folder) })
        }
    }

    /// The command's report: the breaking changes, what was added, and the smallest version allowed.
    public static func report(_ diff: APIDiff, json: Bool) throws -> CommandResult {
        let status: ExitStatus = diff.breaking.isEmpty ? .ok : .findings
        if json { return CommandResult(output: try JSONOutput.string(diff), status: status) }
        var text = "API of \(diff.component): \(diff.from) -> \(diff.to)\n"
        if diff.breaking.isEmpty {
            text += "No breaking change.\n"
        } else {
            text += "Breaking changes:\n" + diff.breaking.map { "  \($0)\n" }.joined()
        }
        text += "Added: \(diff.added) public declaration\(diff.added == 1 ? "" : "s")\n"
        if let smallest = diff.smallestVersion {
            let kind = diff.breaking.isEmpty ? (diff.added > 0 ? "a minor release" : "a patch release") : "a release that may break"
            text += "The smallest version after \(diff.from) that allows this: \(smallest) (\(kind)).\n"
        }
        return CommandResult(output: text, status: status)
    }
}
