import Foundation

/// The apps' generated wiring, written by `sync` and by every command that rewrites components.yaml:
/// each app's `App/<name>/` sources (its module list, plugins, host versions, left-out features) and
/// the `apps` block of the root Package.swift, from components.yaml's `apps:`, its `plugins:` and the
/// types the sources declare. Nothing hand-written names a component's module or a plugin.
public enum AppWiring {
    /// The folder holding every app's generated sources.
    /// The folder of the shell, the apps' files and each app's generated sources (`App/<name>/`).
    public static let appsFolder = "App"

    /// Facts of components whose sources are not on disk yet (a staged scaffold).
    public struct Staged: Sendable {
        /// Plugin definitions by component.
        public var definitions: [String: [PluginCatalog.Definition]] = [:]
        /// Modules by component.
        public var modules: [String: [PluginCatalog.Module]] = [:]
        /// Route patterns by interface component.
        public var routes: [String: [String]] = [:]
        /// Each staged package's manifest, by component, with the package's folder.
        public var manifests: [String: (folder: String, bytes: [UInt8])] = [:]
        /// Where each staged package's files wait on disk, by component: its content key is theirs.
        var folders: [String: URL] = [:]

        /// Facts to add to what the sources say.
        public init(
            definitions: [String: [PluginCatalog.Definition]] = [:], modules: [String: [PluginCatalog.Module]] = [:], routes: [String: [String]] = [:]
        ) {
            self.definitions = definitions
            self.modules = modules
            self.routes = routes
        }
    }

    /// What the generator writes.
    public struct Output: Sendable {
        /// Each app's files, by path relative to the root.
        public var files: [String: [UInt8]]
        /// The contents of Package.swift's `apps` block.
        public var manifestBlock: String
        /// The components the root package depends on directly.
        public var packages: [Component]
    }

    /// The generated wiring, or nil for a workspace with neither apps nor a shell (App/Shell).
    public static func generate(_ workspace: Workspace, adding staged: Staged = Staged()) throws -> Output? {
        let hasShell = FileStatus.isRealFolder(workspace.root.appendingPathComponent(AppPlan.shellFolder))
        guard hasShell || !workspace.apps.isEmpty else { return nil }
        guard hasShell else { throw refusal("components.yaml declares apps, but there is no shell at \(AppPlan.shellFolder) for them to run in") }
        var analysis = try WorkspaceAnalysis.analyze(workspace)
        staged.addEdges(to: &analysis)
        var catalog = PluginCatalog(analysis)
        catalog.definitions.merge(staged.definitions) { _, new in new }
        catalog.modules.merge(staged.modules) { _, new in new }
        try checkSettings(workspace, catalog: catalog)
        for app in workspace.apps {
            if let owner = analysis.moduleOwners[app.product] ?? analysis.moduleOwners.first(where: { $0.key.lowercased() == app.product.lowercased() })?.value
            {
                throw refusal("the product '\(app.product)' of app '\(app.name)' is also a target of component '\(owner)'; give the app another 'product:'")
            }
        }
        try requireAppFolders(workspace, root: workspace.root)
        let shell = AppPlan.shellComponents(analysis)
        let shellAPI = AppManifest.shellModules(analysis, publicOnly: true)
        let plans = try workspace.apps.map {
            try AppPlan.make($0, analysis: analysis, catalog: catalog, shell: shell, shellAPI: shellAPI, stagedRoutes: staged.routes)
        }
        let keys = try hostKeys(workspace, analysis: analysis, components: Set(plans.flatMap(\.linked)), staged: staged.folders)
        var files: [String: [UInt8]] = [:]
        for plan in plans { files.merge(try AppSources.files(plan, workspace: workspace, keys: keys)) { _, new in new } }
        var stagedOwners: [String: Component] = [:]
        for (name, module) in staged.modules.flatMap({ name, modules in modules.map { (name, $0.module) } })
            + staged.definitions.flatMap({ name, definitions in definitions.map { (name, $0.module) } })
        {
            stagedOwners[module] = workspace.component(named: name)
        }
        let shellModules = AppManifest.shellModules(analysis)
        let block = try AppManifest.contents(plans, shellModules: shellModules, analysis: analysis, staged: stagedOwners)
        let packages = AppManifest.directComponents(plans, shellModules: shellModules, analysis: analysis, staged: stagedOwners)
        return Output(files: files, manifestBlock: block, packages: packages)
    }

    /// The content key (``KeyEnvironment/contentOnly``) of each of `components`: what a runtime plugin must have been
    /// built against. None outside a git repository (the App then loads no runtime plugin); throws when a key cannot
    /// be made (a path or link out of the repository), as `hash` does.
    static func hostKeys(_ workspace: Workspace, analysis: WorkspaceAnalysis, components: Set<String>, staged: [String: URL]) throws -> [String: String] {
        try contentKeys(workspace, analysis: analysis, components: components, staged: staged).mapValues(\.key)
    }

    /// What holds uncommitted changes that the content keys of the components the apps link cover: their folders,
    /// and the workspace's inputs (a component whose key is uncommitted otherwise, by a path package or link, is
    /// named itself). The wiring would record keys no commit has.
    static func uncommittedLinked(_ workspace: Workspace) throws -> [String] {
        let analysis = try WorkspaceAnalysis.analyze(workspace, readSources: false)
        let linked = Set(AppPlan.linkedComponents(analysis).values.flatMap { $0 }).filter { workspace.component(named: $0)?.isRuntime == false }
        let dirty = try contentKeys(workspace, analysis: analysis, components: linked, staged: [:]).filter(\.value.uncommitted).keys.sorted()
        guard !dirty.isEmpty else { return [] }
        let context = try VersionedWorkspace(workspace)
        let changed = { (path: String) in try !context.repository.changedFiles(under: context.repositoryPath(path)).isEmpty }
        let inputs = try workspace.inputs.filter(changed).map { "the input \($0)" }
        let folders = try dirty.filter { name in try workspace.component(named: name).map { try changed($0.path) } ?? false }
        return folders + inputs + (folders.isEmpty && inputs.isEmpty ? dirty : [])
    }

    private static func contentKeys(
        _ workspace: Workspace, analysis: WorkspaceAnalysis, components: Set<String>, staged: [String: URL]
    ) throws -> [String: ComponentKey] {
        guard !components.isEmpty, let context = try? VersionedWorkspace(workspace) else { return [:] }
        var keys = try ComponentKeys(contentOf: context, analysis: analysis, staged: staged)
        var found: [String: ComponentKey] = [:]
        for name in components.sorted() { found[name] = try keys.key(of: name) }
        return found
    }

    /// Adds to `transaction` every generated file that differs from the disk, the `apps` block of
    /// Package.swift, and the removal of folders of apps no longer declared: every command that
    /// rewrites components.yaml calls it (the wiring carries the line of each declaration entry).
    /// Returns the paths it changes.
    @discardableResult
    static func update(_ transaction: inout WorkspaceTransaction, yaml: [UInt8], root: URL, adding staged: Staged = Staged()) throws -> [String] {
        let workspace = try WorkspaceLoader.load(bytes: yaml, root: root, checkingFolders: false)
        guard let output = try generate(workspace, adding: staged) else { return [] }
        var changed: [String] = []
        for (path, bytes) in output.files.sorted(by: { $0.key < $1.key })
        where FileManager.default.contents(atPath: root.appendingPathComponent(path).path) != Data(bytes) {
            transaction.write(path, bytes)
            changed.append(path)
        }
        guard
            let manifest = transaction.pendingWrite("Package.swift").map({ String(decoding: $0, as: UTF8.self) })
                ?? FileManager.default.contents(atPath: root.appendingPathComponent("Package.swift").path).flatMap({ String(data: $0, encoding: .utf8) })
        else {
            guard workspace.apps.isEmpty else { throw refusal("the root has no readable Package.swift (UTF-8) to add the apps' targets to") }
            return changed
        }
        guard let withApps = AppManifest.block.rewriting(manifest, { _ in output.manifestBlock }) else {
            // A workspace without apps may keep a hand-written manifest.
            guard workspace.apps.isEmpty else {
                throw refusal("Package.swift \(AppManifest.block.absence(in: manifest)), around the apps' targets; add them")
            }
            return changed
        }
        let rewritten = try AppManifest.packageLines(withApps, needed: output.packages, workspace: workspace)
        if rewritten != manifest {
            transaction.write("Package.swift", Array(rewritten.utf8))
            changed.append("Package.swift")
        }
        let declared = Set(workspace.apps.map(\.folder))
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(appsFolder).path)) ?? []
        for name in existing.sorted() where !declared.contains("\(appsFolder)/\(name)") {
            let folder = "\(appsFolder)/\(name)"
            // The shell's folder and the apps' files sit beside the apps: only a folder with generated sources was an app's.
            guard FileStatus.isRealFolder(root.appendingPathComponent(folder)), holdsGeneratedSources(folder, root: root) else { continue }
            try requireGenerated(folder, root: root)
            try requireCommitted(folder, workspace: workspace)
            transaction.remove(committedFolder: folder)
            changed.append(folder)
        }
        return changed
    }

    /// Refuses an app whose folder would be one of yours: a folder of that name, in any case, holding files componentctl did not write.
    private static func requireAppFolders(_ workspace: Workspace, root: URL) throws {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(appsFolder).path)) ?? []
        for app in workspace.apps {
            for name in existing where name.lowercased() == app.name.lowercased() {
                let folder = "\(appsFolder)/\(name)"
                guard name != app.name || !holdsOnlyGeneratedSources(folder, root: root) else { continue }
                throw refusal(
                    "app '\(app.name)' would be generated into \(app.folder), but '\(folder)' is a folder of yours; "
                        + "give the app another name in components.yaml")
            }
        }
    }

    /// Whether `folder` holds a file componentctl generated.
    private static func holdsGeneratedSources(_ folder: String, root: URL) -> Bool {
        let url = root.appendingPathComponent(folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).contains { isGenerated(url.appendingPathComponent($0)) }
    }

    /// Whether every file of `folder` is one componentctl generated (an empty folder too).
    private static func holdsOnlyGeneratedSources(_ folder: String, root: URL) -> Bool {
        let url = root.appendingPathComponent(folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).allSatisfy { isGenerated(url.appendingPathComponent($0)) }
    }

    private static func isGenerated(_ file: URL) -> Bool {
        file.pathExtension == "swift" && (FileManager.default.contents(atPath: file.path) ?? Data()).starts(with: Data(AppSources.marker.utf8))
    }

    /// Refuses to delete a folder git could not give back: an app's generated sources are committed with it,
    /// so a file that is not (a copy of the marker line on a file of yours, say) is someone's work.
    private static func requireCommitted(_ folder: String, workspace: Workspace) throws {
        guard let context = try? VersionedWorkspace(workspace) else {
            throw refusal("'\(folder)' belongs to no app of components.yaml, but outside a git repository componentctl deletes nothing; delete it yourself")
        }
        let prefix = context.prefix.isEmpty ? "" : context.prefix + "/"
        let files = try context.repository.changedFiles(under: prefix + folder, ignored: true)
        guard files.isEmpty else {
            throw refusal(
                "'\(folder)' belongs to no app of components.yaml, but git could not give back \(files.prefix(3).joined(separator: ", ")); "
                    + "commit or move it, then run the command again")
        }
    }

    /// Refuses to delete a folder holding anything componentctl did not generate.
    private static func requireGenerated(_ folder: String, root: URL) throws {
        let url = root.appendingPathComponent(folder)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
            guard isGenerated(url.appendingPathComponent(name)) else {
                throw refusal(
                    "'\(folder)' belongs to no app of components.yaml, but '\(folder)/\(name)' was not generated by componentctl; "
                        + "move it out of \(folder) (or declare the app again)")
            }
        }
    }

    /// A setting the App would refuse at start is refused here (check-layers reports it as plugin-setting).
    private static func checkSettings(_ workspace: Workspace, catalog: PluginCatalog) throws {
        for entry in workspace.plugins {
            guard let schema = catalog.definitions[entry.plugin]?.first?.settings else { continue } // unreadable: check-layers says so
            for setting in entry.settings {
                if let message = setting.problem(of: entry.plugin, in: schema) {
                    throw refusal("\(WorkspaceLoader.fileName):\(setting.location.line):\(setting.location.column): \(message)")
                }
            }
        }
    }

    static func refusal(_ reason: String) -> ToolError {
        ToolError("Cannot generate the apps' wiring: \(reason). Run 'componentctl check-layers' for the details; nothing was changed.", status: .usage)
    }
}

extension AppWiring.Staged {
    /// Gives `analysis` the component edges of the staged packages' manifests (their folders are not on disk yet).
    func addEdges(to analysis: inout WorkspaceAnalysis) {
        let workspace = analysis.workspace
        let byPath = Dictionary(workspace.components.map { (LexicalPath.resolve(workspace.folder(of: $0).path), $0.name) }, uniquingKeysWith: { a, _ in a })
        for (name, manifest) in manifests {
            guard let component = workspace.component(named: name),
                let read = try? workspace.manifests.load(manifest.bytes, folder: workspace.root.appendingPathComponent(manifest.folder))
            else { continue }
            let folder = workspace.root.appendingPathComponent(manifest.folder, isDirectory: true)
            var package =
                analysis.packages[name]
                ?? ComponentPackage(
                    component: component, manifestPath: manifest.folder + "/Package.swift", manifest: read, edges: [], unknownPaths: [], targets: [])
            package.manifest = package.manifest ?? read
            package.edges = read.dependencies.compactMap { dependency in
                guard let path = dependency.path, let target = byPath[LexicalPath.resolve(path, from: folder.path)] else {
                    return nil
                }
                return ComponentEdge(from: name, to: target, location: dependency.location)
            }
            analysis.packages[name] = package
        }
    }
}
