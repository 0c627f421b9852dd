import Foundation
import PluginFeed

/// A key that changes exactly when something that can change a component's (or an app's) build or test
/// result changes, and the recipe it was made from.
public struct ComponentKey: Sendable, Encodable, Equatable {
    /// The component's name, or `app <name>` / `app (integrated)`.
    public var name: String
    /// The SHA-256 of the recipe, in lower-case hex.
    public var key: String
    /// The recipe, a line an ingredient (`hash --explain` prints it).
    public var recipe: [String]
    /// Whether its tree, or the tree of something it depends on, holds uncommitted changes.
    public var uncommitted: Bool
    /// External packages its key follows only by their requirement (not an exact version or revision).
    public var inexact: [String]
    /// What the key could follow only in part, said to the user (a submodule that is not checked out).
    public var warnings: [String] = []
    /// Inputs it cannot follow at all (a manifest, or a dependency in one, that the static reader cannot evaluate), its
    /// own and those of what it depends on: no result may be reused under such a key.
    public var unreadable: [String] = []
}

/// What every key of one run shares: the toolchain, the build configuration and flags, the platform.
public struct KeyEnvironment: Sendable, Equatable {
    /// `swift --version`, its lines joined.
    public var swift: String
    /// `debug` or `release`.
    public var configuration: String
    /// Extra arguments of every `swift build` and `swift test` (`COMPONENTCTL_SWIFT_FLAGS`).
    public var flags: [String]
    /// The operating system, its version, the C library and the machine.
    public var platform: String

    /// Creates an environment.
    public init(swift: String, configuration: String, flags: [String], platform: String) {
        self.swift = swift
        self.configuration = configuration
        self.flags = flags
        self.platform = platform
    }

    /// The environment of this machine: `swift --version` of `swift` (the one builds use), and the platform.
    public static func current(swift: String, configuration: String, environment: [String: String]) throws -> KeyEnvironment {
        KeyEnvironment(
            swift: try ToolchainVersion.of(swift: swift, environment: environment), configuration: configuration, flags: swiftFlags(environment),
            platform: Platform.description())
    }

    /// ``current(swift:configuration:environment:)`` started on a thread of its own: `swift --version` runs while the
    /// workspace is read.
    public static func start(swift: String, configuration: String, environment: [String: String]) -> Background<KeyEnvironment> {
        Background { try current(swift: swift, configuration: configuration, environment: environment) }
    }

    /// The extra arguments `COMPONENTCTL_SWIFT_FLAGS` gives every build and test (split on spaces).
    public static func swiftFlags(_ environment: [String: String]) -> [String] {
        (environment["COMPONENTCTL_SWIFT_FLAGS"] ?? "").split(separator: " ").map(String.init)
    }

    /// A key of the component's own content: no toolchain, configuration, flags or platform (a runtime plugin's
    /// manifest checks the Swift runtime apart, and a debug App links what a release plugin does), and not the keys
    /// of what it depends on (compared over a whole closure, each change is named where it happened).
    public static let contentOnly = KeyEnvironment(swift: "", configuration: "", flags: [], platform: "")

    var recipe: [String] {
        guard self != .contentOnly else { return ["content only"] }
        return ["swift \(swift)", "configuration \(configuration)", "flags \(flags.isEmpty ? "none" : flags.joined(separator: " "))", "platform \(platform)"]
    }
}

/// Computes ``ComponentKey``s from git's own tree ids.
///
/// A component's recipe: its folder's tree id (from HEAD's objects, or as git would write the working
/// tree's files when they hold uncommitted changes), the key of each component it depends on (so each key
/// covers everything below it), each external package with its requirement, then the toolchain, the
/// configuration, the flags and the platform. An app's: the tree of the workspace with every component's
/// folder taken out (the shell, the apps, the tests, the tools), the key of each component it links, and
/// the same environment. No path outside the repository, no time and no user name goes in.
public struct ComponentKeys {
    private let context: VersionedWorkspace
    private let analysis: WorkspaceAnalysis
    private let trees: WorkingTrees
    private let environment: KeyEnvironment
    /// Every component's folder (absolute paths), to tell a path dependency on a component from one on another package.
    private let inputs: BuildInputs
    private let lock: PackageLock?
    private var computed: [String: ComponentKey] = [:]
    /// The tree of each submodule path's uncommitted edits (nil: none), read once however many components use it.
    private var submoduleEdits: [String: String?] = [:]

    /// Folders of components whose files are staged elsewhere, not yet in place (a scaffold being written), by component.
    private var staged: [String: URL] = [:]
    /// components.lock's pins: the trees apps build of pinned components.
    private lazy var lockedPins = (try? PinLock.load(root: context.workspace.root))?.pins ?? [:]

    /// Keys of `context`'s components under `environment`; reads the working tree's status once.
    public init(_ context: VersionedWorkspace, environment: KeyEnvironment) throws {
        try self.init(context, environment: Background(finished: environment), status: nil)
    }

    /// Keys of content alone (``KeyEnvironment/contentOnly``), as they will be once the folders `staged` holds (by
    /// component) are in place: `analysis` reads their manifests already.
    init(contentOf context: VersionedWorkspace, analysis: WorkspaceAnalysis, staged: [String: URL]) throws {
        try self.init(context, environment: Background(finished: .contentOnly), status: nil, analysis: analysis)
        self.staged = staged
    }

    /// Keys of `context`'s components under the environment `pending` finds, with the `status` of its repository's working
    /// tree when it was started already (``WorkingTreeStatus/start(containing:)``): both run while the workspace is read.
    public init(
        _ context: VersionedWorkspace, environment pending: Background<KeyEnvironment>, status: Background<WorkingTreeStatus>?,
        analysis known: WorkspaceAnalysis? = nil
    ) throws {
        self.context = context
        // The status of every file, the slowest read, runs beside the manifests' on a repository handle of its own.
        let status = status ?? WorkingTreeStatus.start(containing: context.repository.workdir)
        analysis = try known ?? WorkspaceAnalysis.analyze(context.workspace, readSources: false)
        lock = try Self.trackedLock(context)
        var read = try status.wait()
        // Started from the command's folder, it may have found another repository (one nested in the workspace).
        if read.workdir != context.repository.workdir.path { read = try WorkingTreeStatus.read(context.repository) }
        inputs = try BuildInputs(context, status: read)
        trees = WorkingTrees(context.repository, changed: read.changed)
        environment = try pending.wait()
    }

    /// The key of the component `name`.
    public mutating func key(of name: String) throws -> ComponentKey {
        if let known = computed[name] { return known }
        let component = try context.component(name)
        var visiting: Set<String> = []
        return try key(of: component, visiting: &visiting)
    }

    private mutating func key(of component: Component, visiting: inout Set<String>) throws -> ComponentKey {
        if let known = computed[component.name] { return known }
        guard visiting.insert(component.name).inserted else {
            throw ToolError("'\(component.name)' depends on itself through other components: run 'componentctl check-layers' to see the cycle.", status: .usage)
        }
        let path = context.repositoryPath(of: component)
        var recipe = ["componentctl key 1", "component \(component.name)", "tree \(try tree(of: component, at: path))"]
        // A key of content takes a pinned component's release, whatever its folder holds.
        var uncommitted = !(environment == .contentOnly && component.pin != nil) && trees.isDirty(path)
        let package = analysis.packages[component.name]
        let found = try inputs.resolve(component, manifest: package?.manifest)
        var unreadable = found.unreadable + (found.rootPackage.map { ["the root package at \($0)"] } ?? [])
        recipe += unreadable.map { "unreadable \($0)" }
        // A key of content is the component's own: compared over a whole closure, a change is named where it happened.
        let dependencies = environment == .contentOnly ? [] : Set(package?.edges.map(\.to) ?? []).union(found.components).sorted()
        for name in dependencies {
            guard let dependency = context.workspace.component(named: name) else { continue }
            let key = try key(of: dependency, visiting: &visiting)
            recipe.append("depends \(name) \(key.key)")
            uncommitted = uncommitted || key.uncommitted
            unreadable += key.unreadable
        }
        var inexact: [String] = []
        let external = (package?.manifest?.dependencies ?? []).filter({ $0.url != nil }).sorted(by: { $0.identity < $1.identity })
        for dependency in external {
            let requirement = dependency.requirement ?? "(requirement not read)"
            recipe.append("package \(dependency.identity) \(dependency.url ?? "") \(requirement)")
            if lock?.pins[dependency.identity] == nil && !dependency.isExact { inexact.append(dependency.identity) }
        }
        // The packages it names depend on others the lock pins too: without resolving the graph, every pin counts.
        if let lock, !external.isEmpty {
            recipe += lock.pins.sorted { $0.key < $1.key }.map { "resolved \($0.key) \($0.value) (\(context.workspace.lock))" }
        }
        var warnings = found.unreadable.map {
            "'\(component.name)' depends on a package componentctl cannot find, at \($0): SwiftPM cannot evaluate that manifest (or names "
                + "the package by neither path nor URL), so its key cannot follow that package, no result of it is reused and 'affected' "
                + "always names it. Correct the manifest ('swift package dump-package' in its folder shows SwiftPM's error)."
        }
        if let written = found.rootPackage {
            warnings.append(
                "'\(component.name)' depends on the repository's root package (\(written)), whose targets may read any folder of the "
                    + "repository: its key cannot follow them, so no result of it is reused and 'affected' always names it. To key it, "
                    + "move what it uses into a package folder of its own and depend on that.")
        }
        for (path, source) in found.packages.sorted(by: { $0.key < $1.key }) {
            switch source {
            case .tracked:
                recipe.append("path \(path) \(try trees.treeID(of: path)?.hex ?? "none")")
                uncommitted = uncommitted || trees.isDirty(path)
            case .submodule(let submodule):
                let recorded = inputs.submodules[submodule]?.hex ?? "none"
                if let checkedOut = context.repository.checkedOutCommit(ofSubmodule: submodule) {
                    // Edits inside the submodule that it has not committed are built too: keyed as its commit would hold them.
                    let edits = try submoduleEdits[path] ?? Self.uncommittedTree(of: path, inSubmodule: submodule, context.repository)
                    submoduleEdits[path] = edits
                    recipe.append(
                        "submodule \(submodule) \(checkedOut.hex)" + (path == submodule ? "" : " for \(path)") + (edits.map { " edited \($0)" } ?? ""))
                    uncommitted = uncommitted || checkedOut.hex != recorded || edits != nil
                } else {
                    recipe.append("submodule \(submodule) \(recorded) (not checked out)" + (path == submodule ? "" : " for \(path)"))
                    warnings.append(
                        "the submodule \(submodule), which '\(component.name)' depends on, is not checked out: its key follows the commit the repository "
                            + "records (\(recorded.prefix(12))), but no build can use it. Run: git submodule update --init \(submodule)")
                }
            case .generated(let folder, let from):
                recipe.append("generated \(folder) from " + (try from.map { "\($0) \(try trees.objectID(of: $0)?.hex ?? "none")" }.joined(separator: ", ")))
                uncommitted = uncommitted || from.contains { trees.isDirty($0) }
            case .ignored:
                recipe.append("ignored \(path) \(try Self.contentDigest(of: context.repository.workdir.appendingPathComponent(path)))")
                uncommitted = true
            }
        }
        for link in found.links.sorted() {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: context.repository.workdir.appendingPathComponent(link).path)) ?? "?"
            recipe.append("link \(link) -> \(target)")
            uncommitted = uncommitted || trees.isDirty(link)
        }
        for path in found.linked.sorted() {
            recipe.append("linked \(path) \(try trees.objectID(of: path)?.hex ?? "none")")
            uncommitted = uncommitted || trees.isDirty(path)
        }
        for input in context.workspace.inputs.map(context.repositoryPath) {
            recipe.append("input \(input) \(try trees.objectID(of: input)?.hex ?? "none")")
            uncommitted = uncommitted || trees.isDirty(input)
        }
        recipe += environment.recipe
        visiting.remove(component.name)
        let key = ComponentKey(
            name: component.name, key: Self.digest(recipe), recipe: recipe, uncommitted: uncommitted, inexact: inexact, warnings: warnings,
            unreadable: Array(Set(unreadable)).sorted())
        computed[component.name] = key
        return key
    }

    /// The key of an app of components.yaml (`app` nil: the integrated workspace, every app and its tests).
    public mutating func appKey(_ app: AppDeclaration?) throws -> ComponentKey {
        let workspace = context.workspace
        let linked = app.map { AppPlan.linkedComponents(analysis)[$0.name] ?? [] } ?? Set(workspace.components.map(\.name))
        let root = context.repositoryPath("")
        let folders = workspace.components.map(context.repositoryPath(of:))
        let name = app.map { "app \($0.name)" } ?? "app (integrated)"
        var recipe = ["componentctl app key 1", name + (app.map { " product \($0.product)" } ?? "")]
        var uncommitted: Bool
        if let paths = app?.ownPaths.map(context.repositoryPath), !paths.isEmpty {
            // The app's own files, as components.yaml declares them: what `affected` compares too.
            recipe += try paths.map { "path \($0) \(try trees.objectID(of: $0)?.hex ?? "none")" }
            uncommitted = paths.contains { trees.isDirty($0) }
        } else {
            recipe.append("workspace \(try trees.treeID(of: root, leavingOut: folders)?.hex ?? "none")")
            uncommitted = trees.isDirty(root, leavingOut: folders)
        }
        var inexact: [String] = []
        var unreadable: [String] = []
        for component in linked.sorted() {
            let key = try key(of: component)
            recipe.append("links \(component) \(key.key)")
            inexact += key.inexact
            unreadable += key.unreadable
            uncommitted = uncommitted || key.uncommitted
            if let pinned = workspace.component(named: component)?.pin {
                // The App builds a pinned component from its release, not from its folder.
                recipe.append("pinned \(component) \(pinned) \(try pinnedTree(component, version: pinned))")
            }
        }
        recipe += environment.recipe
        return ComponentKey(
            name: name, key: Self.digest(recipe), recipe: recipe, uncommitted: uncommitted, inexact: Array(Set(inexact)).sorted(),
            unreadable: Array(Set(unreadable)).sorted())
    }

    /// The tree id of `component`'s folder at `path`: as staged, or as on disk; a key of content takes a pinned
    /// component's release, which is what apps build.
    private mutating func tree(of component: Component, at path: String) throws -> String {
        if let folder = staged[component.name] { return try trees.treeID(ofStaged: folder, as: path)?.hex ?? "none" }
        if environment == .contentOnly, let pin = component.pin { return try releasedTree(component.name, version: pin) }
        return try trees.treeID(of: path)?.hex ?? "none"
    }

    /// The tree apps build of `name`, pinned to `version`: components.lock's, else its tag's.
    private mutating func releasedTree(_ name: String, version: String) throws -> String {
        if let locked = lockedPins[name], locked.version == version { return locked.tree }
        let tree = try pinnedTree(name, version: version)
        guard tree != "unreleased" else {
            throw ToolError(
                "'\(name)' is pinned to \(version), but neither components.lock nor a tag \(name)@\(version) says what that release holds. "
                    + context.fetchTagsAdvice, status: .environment)
        }
        return tree
    }

    private func pinnedTree(_ name: String, version: String) throws -> String {
        let component = try context.component(name)
        guard let tag = try context.repository.resolveTag("\(name)@\(version)"),
            let tree = try context.repository.tree(of: tag.commit, path: context.repositoryPath(of: component))
        else { return "unreleased" }
        return tree.hex
    }

    /// The workspace's lock when git tracks it: one a clone does not have (SwiftPM writes it anew in every build folder,
    /// and git often ignores it) governs no build but this machine's, so keys follow the requirements instead.
    static func trackedLock(_ context: VersionedWorkspace) throws -> PackageLock? {
        let url = context.workspace.root.appendingPathComponent(context.workspace.lock)
        guard FileStatus.isRegularFile(url) else {
            guard !FileStatus.exists(url) else {
                throw ToolError("workspace.lock '\(context.workspace.lock)' is no file: name the Package.resolved that governs the builds.", status: .usage)
            }
            return nil
        }
        guard try !context.repository.isUntracked(context.repositoryPath(context.workspace.lock)) else { return nil }
        return try PackageLock.read(url)
    }

    /// The tree id the folder `path` (inside the checked-out submodule `submodule`) would have once its changes were
    /// committed there, or nil when it has none.
    static func uncommittedTree(of path: String, inSubmodule submodule: String, _ repository: GitRepository) throws -> String? {
        let inside = path == submodule ? "" : String(path.dropFirst(submodule.count + 1))
        let nested = try GitRepository(containing: repository.workdir.appendingPathComponent(submodule))
        let trees = try WorkingTrees(nested)
        guard trees.isDirty(inside) else { return nil }
        return try trees.treeID(of: inside)?.hex ?? "none"
    }

    /// A digest of every file and link under `folder`, by relative path: what an ignored folder holds now.
    static func contentDigest(of folder: URL) throws -> String {
        var lines: [String] = []
        for path in (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted() {
            let url = folder.appendingPathComponent(path)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                lines.append("\(path) -> \(target)")
            } else if FileStatus.isRegularFile(url), let data = FileManager.default.contents(atPath: url.path) {
                lines.append("\(path) \(Digest.sha256(data))")
            }
        }
        return digest(lines)
    }

    static func digest(_ recipe: [String]) -> String {
        Digest.sha256(Data(recipe.joined(separator: "\n").utf8 + [0x0A]))
    }
}
