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
        let run: ProcessRunner.Output
        do {
            run = try ProcessRunner.run(URL(fileURLWithPath: swift), ["--version"])
        } catch {
            throw ToolError(
                "Cannot run the Swift compiler '\(swift)' (\(ToolError.describe(error))). Set COMPONENTCTL_SWIFT to a swift executable, "
                    + "or unset it to use the one on the PATH.", status: .environment)
        }
        guard run.status == 0 else {
            throw ToolError("'\(swift) --version' failed (\(run.status)): \(run.errorText) Is Swift installed and on the PATH?", status: .environment)
        }
        let version = run.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return KeyEnvironment(
            swift: version.joined(separator: "; "), configuration: configuration, flags: swiftFlags(environment), platform: Platform.description())
    }

    /// The extra arguments `COMPONENTCTL_SWIFT_FLAGS` gives every build and test (split on spaces).
    public static func swiftFlags(_ environment: [String: String]) -> [String] {
        (environment["COMPONENTCTL_SWIFT_FLAGS"] ?? "").split(separator: " ").map(String.init)
    }

    var recipe: [String] {
        ["swift \(swift)", "configuration \(configuration)", "flags \(flags.isEmpty ? "none" : flags.joined(separator: " "))", "platform \(platform)"]
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
    private let componentFolders: Set<String>
    private var computed: [String: ComponentKey] = [:]

    /// Keys of `context`'s components under `environment`; reads the working tree's status once.
    public init(_ context: VersionedWorkspace, environment: KeyEnvironment) throws {
        self.context = context
        self.environment = environment
        analysis = WorkspaceAnalysis.analyze(context.workspace, readSources: false)
        trees = try WorkingTrees(context.repository)
        componentFolders = Set(context.workspace.components.map { context.workspace.folder(of: $0).standardizedFileURL.path })
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
        var recipe = ["componentctl key 1", "component \(component.name)", "tree \(try trees.treeID(of: path)?.hex ?? "none")"]
        var uncommitted = trees.isDirty(path)
        let package = analysis.packages[component.name]
        for name in Set(package?.edges.map(\.to) ?? []).sorted() {
            guard let dependency = context.workspace.component(named: name) else { continue }
            let key = try key(of: dependency, visiting: &visiting)
            recipe.append("depends \(name) \(key.key)")
            uncommitted = uncommitted || key.uncommitted
        }
        var inexact: [String] = []
        let dependencies = package?.manifest?.dependencies ?? []
        for dependency in dependencies.filter({ $0.url != nil }).sorted(by: { $0.identity < $1.identity }) {
            recipe.append("package \(dependency.identity) \(dependency.url ?? "") \(dependency.requirement ?? "(requirement not read)")")
            if !dependency.isExact { inexact.append(dependency.identity) }
        }
        // A package by path that is no component is keyed by its tree like a component's own folder, and so
        // are the packages it depends on by path in turn.
        var pending = dependencies.compactMap(\.path).map { (written: $0, from: context.workspace.folder(of: component)) }
        var packages: [String: String] = [:]
        while let (written, from) = pending.popLast() {
            let target = URL(fileURLWithPath: URL(fileURLWithPath: written, relativeTo: from).standardizedFileURL.path, isDirectory: true)
            guard !componentFolders.contains(target.path) else { continue }
            guard let inside = context.repository.relativePath(of: target) else {
                throw ToolError(
                    "'\(component.name)' depends on the package at \(written), outside the repository, so no key can follow its changes. "
                        + "Move it into the repository, or make it a component of components.yaml.", status: .usage)
            }
            guard packages[inside] == nil else { continue }
            packages[inside] = try trees.treeID(of: inside)?.hex ?? "none"
            uncommitted = uncommitted || trees.isDirty(inside)
            // A manifest the static reader cannot follow is one SwiftPM reads; its own tree is in the key still.
            if let manifest = FileManager.default.contents(atPath: target.appendingPathComponent("Package.swift").path),
                let read = try? ManifestReader.read(Array(manifest))
            {
                pending += read.dependencies.compactMap(\.path).map { ($0, target) }
            }
        }
        recipe += packages.sorted { $0.key < $1.key }.map { "path \($0.key) \($0.value)" }
        recipe += environment.recipe
        visiting.remove(component.name)
        let key = ComponentKey(
            name: component.name, key: Self.digest(recipe), recipe: recipe, uncommitted: uncommitted, inexact: inexact)
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
        var recipe = [
            "componentctl app key 1", name + (app.map { " product \($0.product)" } ?? ""),
            "workspace \(try trees.treeID(of: root, leavingOut: folders)?.hex ?? "none")",
        ]
        var uncommitted = trees.isDirty(root, leavingOut: folders)
        var inexact: [String] = []
        for component in linked.sorted() {
            let key = try key(of: component)
            recipe.append("links \(component) \(key.key)")
            inexact += key.inexact
            uncommitted = uncommitted || key.uncommitted
            if let pinned = workspace.component(named: component)?.pin {
                // The App builds a pinned component from its release, not from its folder.
                recipe.append("pinned \(component) \(pinned) \(try pinnedTree(component, version: pinned))")
            }
        }
        recipe += environment.recipe
        return ComponentKey(name: name, key: Self.digest(recipe), recipe: recipe, uncommitted: uncommitted, inexact: Array(Set(inexact)).sorted())
    }

    private func pinnedTree(_ name: String, version: String) throws -> String {
        let component = try context.component(name)
        guard let tag = try context.repository.resolveTag("\(name)@\(version)"),
            let tree = try context.repository.tree(of: tag.commit, path: context.repositoryPath(of: component))
        else { return "unreleased" }
        return tree.hex
    }

    static func digest(_ recipe: [String]) -> String {
        Digest.sha256(Data(recipe.joined(separator: "\n").utf8 + [0x0A]))
    }
}
