public import Foundation

/// `componentctl create`: a new workspace for a team's own app, made from this one: its framework (every
/// layer below the top one, the shell, the tool, CI, the tests and benchmarks), one app of the new name,
/// one starter feature, and none of the sample (the top layer's components, the apps, `workspace.sample`).
public enum CreateService {
    /// What the new workspace is called and starts with.
    public struct Options: Sendable {
        /// The workspace's name, in UpperCamelCase: its app's product and its settings' prefix come from it.
        public var name: String
        /// The URL scheme of its routes; nil: the name in lower case.
        public var scheme: String?
        /// The starter feature's name, in UpperCamelCase.
        public var feature: String

        /// Creates options.
        public init(name: String, scheme: String? = nil, feature: String = "Home") {
            self.name = name
            self.scheme = scheme
            self.feature = feature
        }
    }

    /// Makes the workspace `options` describe in `folder` (new, or empty) from `source`. Nothing is left
    /// behind when it fails: the workspace is put together in a hidden folder inside `folder` and moved into
    /// place at the end; a folder the command made goes again.
    public static func create(from source: Workspace, into folder: URL, options: Options) throws -> CommandResult {
        let scheme = options.scheme ?? options.name.lowercased()
        try check(options, scheme: scheme)
        try refuseModuleClashes(options, in: source)
        let target = folder.standardizedFileURL
        try checkTarget(target, source: source, name: options.name)
        let made = !FileStatus.exists(target)
        if made { try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false) }
        let staging = target.appendingPathComponent(stagingPrefix + "\(getpid())")
        var placed = false
        defer {
            if !placed { try? FileManager.default.removeItem(at: made ? target : staging) }
        }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        var copy = try FrameworkCopy(of: source)
        try copy.copy(to: staging)
        let result = try assemble(staging, from: source, options: options, scheme: scheme)
        try place(staging, in: target)
        placed = true
        return describe(result, in: target, from: source, options: options, leftRepositories: copy.repositories)
    }

    /// What `assemble` made.
    private struct Assembled {
        var app: String?
        var start: String?
        var sample: [Component]
        var top: String
        var warnings: String
    }

    /// Turns the copy in `staging` into the new workspace: a repository, no pins, the new name and app, no
    /// sample, the starter feature, a baseline without the sample's entries, synced.
    private static func assemble(_ staging: URL, from source: Workspace, options: Options, scheme: String) throws -> Assembled {
        try GitRepository.initialize(at: staging)
        let top = source.rules.layers.first ?? ""
        let sample = source.components.filter { $0.layer == top }
        // A workspace with apps gets one of the new name; one without (an adopted repository) gets none.
        let app = source.apps.isEmpty ? nil : kebabCase(options.name)
        try dropPins(in: staging)
        try dropXcodeApps(of: source, in: staging)
        try rename(staging, name: options.name, scheme: scheme, app: app)
        if !sample.isEmpty {
            let context = try VersionedWorkspace(WorkspaceLoader.load(root: staging))
            do {
                _ = try RemoveService.remove(context, names: sample.map(\.name), keepFiles: true)
            } catch let error as ToolError where error.message.contains("still import") || error.message.contains("depend on") {
                throw ToolError(
                    "The framework still uses the sample, so a workspace without it would not build. \(error.message)\n"
                        + "Make those files independent of the layer \(top), or list them under workspace.sample (they are then left out). "
                        + "Nothing was created.", status: error.exitStatus)
            }
        }
        for component in sample { removeFolder(component.path, in: staging) }
        do {
            _ = try ScaffoldService.create(
                try WorkspaceLoader.load(root: staging), name: options.feature, layer: top, interface: true, apps: app.map { [$0] } ?? [])
        } catch let error as ToolError {
            throw ToolError("--feature \(options.feature): \(error.message) Nothing was created.", status: error.exitStatus)
        }
        // A feature in the house style (the workspace has the router and screens) opens a route: the app starts there.
        let created = try WorkspaceLoader.load(root: staging)
        let start = ScaffoldService.isRoutedFeature(in: created, layer: top) ? "\(scheme)://\(Templates.host(of: options.feature))" : nil
        if let start { try edit(staging) { try ComponentsFileEditor.settingWorkspace("start", to: start, in: $0) } }
        let synced = try SyncService.sync(try VersionedWorkspace(WorkspaceLoader.load(root: staging)), check: false)
        guard synced.status == .ok else { throw ToolError(synced.errors + "Nothing was created.", status: synced.status) }
        // The baseline's entries about the sample's files match nothing any more: they go, as --update-baseline drops them.
        let checked = try CheckLayersService.run(
            try WorkspaceLoader.load(root: staging), options: CheckLayersService.Options(updateBaseline: created.checks.baseline != nil))
        let warnings =
            checked.status == .ok
            ? "" : "warning: check-layers finds errors in the new workspace, which came with the template: run 'componentctl check-layers' there.\n"
        return Assembled(app: app, start: start, sample: sample, top: top, warnings: warnings)
    }

    /// The summary and the next steps.
    private static func describe(
        _ result: Assembled, in target: URL, from source: Workspace, options: Options, leftRepositories: [String]
    )
        -> CommandResult
    {
        let made = [
            result.app.map { "the app '\($0)' (product \(options.name))" },
            "its first feature \(options.feature)" + (result.start.map { " at \($0)" } ?? ""),
        ].compactMap { $0 }
        var next = ["cd \(shellQuoted(target.path))"]
        if let app = result.app { next += ["make app    # builds and opens \(options.name)", "componentctl new NAME --layer \(result.top) --app \(app)"] }
        next.append("git add -A && git commit -m '\(options.name), created'")
        let paths = source.sample.isEmpty ? "" : ", \(source.sample.count) paths of workspace.sample"
        var warnings = result.warnings
        for path in leftRepositories {
            warnings += "note: \(path) is a repository of its own (a submodule or a clone), so it was not copied; add it again there if the app needs it.\n"
        }
        return CommandResult(
            output: "Created the workspace \(options.name) in \(target.path): the framework of \(source.name), \(made.joined(separator: ", ")), "
                + "and none of its sample (\(result.sample.count) components of the layer \(result.top)\(paths)).\n"
                + "Next:\n" + next.map { "  \($0)\n" }.joined(),
            errors: warnings)
    }

    /// The hidden folder inside the target a run puts the workspace together in, before its process id.
    private static let stagingPrefix = ".componentctl-create-"

    /// Deletes what a killed run left in `target`: folders of this command's naming whose process is gone.
    private static func removeAbandonedStaging(in target: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? [] where name.hasPrefix(stagingPrefix) {
            guard let pid = Int32(name.dropFirst(stagingPrefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
        }
    }

    /// Removes the folder `path` of `root`, then each parent it leaves empty.
    private static func removeFolder(_ path: String, in root: URL) {
        var folder = root.appendingPathComponent(path)
        try? FileManager.default.removeItem(at: folder)
        while folder.deletingLastPathComponent().path.count > root.path.count {
            folder.deleteLastPathComponent()
            guard (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true else { return }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Schemes the App's web container and the platform own: links of these never reach the router.
    static let reservedSchemes: Set<String> = ["http", "https", "file", "data", "javascript", "about", "blob", "mailto", "tel", "ftp", "ws", "wss"]

    /// Refuses a name, scheme or feature name the new workspace cannot take.
    private static func check(_ options: Options, scheme: String) throws {
        guard options.name.first?.isUppercase == true, options.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), options.name.count <= 64
        else {
            throw ToolError(
                "--name '\(options.name.prefix(80))' is no workspace name: use at most 64 UpperCamelCase letters and digits, like Notes "
                    + "(its app's product is named after it).", status: .usage)
        }
        guard scheme.range(of: "^[a-z][a-z0-9+.-]{0,63}$", options: .regularExpression) != nil else {
            throw ToolError(
                "--scheme '\(scheme.prefix(80))' is no URL scheme: use lower-case letters, digits, '+', '.' or '-', starting with a letter, like notes.",
                status: .usage)
        }
        guard !reservedSchemes.contains(scheme) else {
            throw ToolError(
                "--scheme '\(scheme)' belongs to the web and the platform, not to the app's own links: choose the app's own, like notes.", status: .usage)
        }
        do {
            try ScaffoldService.checkName(options.feature)
            guard options.feature.count <= 64 else { throw ToolError("'\(options.feature.prefix(80))' is longer than 64 characters.", status: .usage) }
        } catch let error as ToolError {
            throw ToolError("--feature: \(error.message)", status: .usage)
        }
    }

    /// Refuses a name whose product, or a feature whose modules, would clash with a module the new workspace
    /// keeps: the toolchain's, a framework component's, the root package's, or an external package's it imports.
    private static func refuseModuleClashes(_ options: Options, in source: Workspace) throws {
        let kept = { (component: String) in source.component(named: component)?.layer != source.rules.layers.first }
        let analysis = try WorkspaceAnalysis.analyze(source)
        var taken = ScaffoldService.takenModules(analysis, keeping: kept)
        // An external package's module is known by the imports of the components that use it.
        for (component, package) in analysis.packages where kept(component) {
            for module in package.targets.flatMap({ $0.files.flatMap(\.imports) }).map(\.module)
            where analysis.moduleOwners[module] == nil && taken[module.lowercased()] == nil {
                taken[module.lowercased()] = "a module of a package '\(component)' imports"
            }
        }
        if let owner = taken[options.name.lowercased()] {
            throw ToolError(
                "--name \(options.name) would name the app's product after \(owner) (SwiftPM needs each name once): choose another name.", status: .usage)
        }
        let feature = ScaffoldService.featureModuleSuffixes.map { options.feature + $0 }
        if let clash = feature.first(where: { taken[$0.lowercased()] != nil || $0.lowercased() == options.name.lowercased() }) {
            let owner = taken[clash.lowercased()] ?? "the app's product (--name)"
            throw ToolError("--feature \(options.feature) would make the module \(clash), which is \(owner): choose another feature name.", status: .usage)
        }
    }

    /// Refuses a target that holds files, is no folder, has no parent folder, or lies inside `source`; cleans
    /// what a killed run left in it.
    private static func checkTarget(_ target: URL, source: Workspace, name: String) throws {
        let root = source.root.standardizedFileURL.resolvingSymlinksInPath().path
        let resolved = target.resolvingSymlinksInPath().path
        // Inside the workspace it would become part of it, unless git ignores the place (a build folder).
        if resolved == root || resolved.hasPrefix(root + "/") || root.hasPrefix(resolved + "/"), !isIgnored(target, in: source) {
            let beside = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent(name).path
            throw ToolError(
                "'\(target.path)' is inside the workspace \(source.name) at \(root) (or holds it); a new workspace lives beside it: "
                    + "componentctl create \(shellQuoted(beside)) --name \(name)", status: .usage)
        }
        let parent = target.deletingLastPathComponent()
        guard FileStatus.isFolder(parent) else {
            let what = FileStatus.exists(parent) ? "is a file, not a folder" : "does not exist: make it first (mkdir -p \(shellQuoted(parent.path)))"
            throw ToolError("'\(parent.path)' \(what); or name a folder in one that exists.", status: .usage)
        }
        guard FileStatus.exists(target) else { return }
        guard FileStatus.isFolder(target) else {
            throw ToolError("'\(target.path)' is a file; name a new folder, or an empty one.", status: .usage)
        }
        removeAbandonedStaging(in: target)
        guard (try FileManager.default.contentsOfDirectory(atPath: target.path)).isEmpty else {
            throw ToolError("'\(target.path)' is not empty; name a new folder, or an empty one.", status: .usage)
        }
    }

    private static func isIgnored(_ target: URL, in source: Workspace) -> Bool {
        guard let repository = try? GitRepository(containing: source.root), let path = repository.relativePath(of: target.resolvingSymlinksInPath()),
            !path.isEmpty
        else { return false }
        return (try? repository.isIgnored(path + "/")) ?? false
    }

    /// `text` as one word of a POSIX shell command.
    private static func shellQuoted(_ text: String) -> String {
        text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }) ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Pins name tags of the template's repository, which the new one does not have: its components start unpinned.
    private static func dropPins(in staging: URL) throws {
        for component in try unchecked(staging).components where component.pin != nil {
            try edit(staging) { try ComponentsFileEditor.removing("pin", of: component.name, in: $0) }
        }
    }

    /// Xcode apps whose project stays behind (in the sample) go from the new workspace: all of them, since
    /// their block is edited whole; one whose project is copied makes the command refuse.
    private static func dropXcodeApps(of source: Workspace, in staging: URL) throws {
        guard !source.xcodeApps.isEmpty else { return }
        let copied = source.xcodeApps.filter { FileStatus.exists(staging.appendingPathComponent($0.project)) }
        guard copied.count == source.xcodeApps.count || copied.isEmpty else {
            throw ToolError(
                "The Xcode apps \(copied.map(\.name).joined(separator: ", ")) would come along, and the others not: list every Xcode project under "
                    + "workspace.sample, or none. Nothing was created.", status: .usage)
        }
        if copied.isEmpty { try edit(staging) { try ComponentsFileEditor.removingTopLevel("xcode-apps", in: $0) } }
    }

    /// Gives the workspace its name and scheme, and one app of that name in place of the template's apps.
    private static func rename(_ staging: URL, name: String, scheme: String, app: String?) throws {
        // The prefix and data folder follow the name and scheme unless set: the template's own would stay.
        for key in ["settings-prefix", "data-folder", "sample", "start"] {
            try edit(staging) { try ComponentsFileEditor.removingWorkspace(key, in: $0) }
        }
        try edit(staging) { try ComponentsFileEditor.settingWorkspace("name", to: name, in: $0) }
        try edit(staging) { try ComponentsFileEditor.settingWorkspace("scheme", to: scheme, in: $0) }
        guard let app else { return }
        let paths = ["Package.swift", "App/Shell", "Tests"].filter { FileStatus.exists(staging.appendingPathComponent($0)) }
        try edit(staging) {
            try ComponentsFileEditor.replacingBlock(
                "apps",
                with: """
                      \(app):\(upperCamelCase(app) == name ? "" : "\n    product: \(name)")
                        components: []
                        # What belongs to the app besides its components and its folder \(AppWiring.appsFolder)/\(app): a change here affects it (`componentctl affected`).
                        paths: [\(paths.joined(separator: ", "))]

                    """, in: $0)
        }
    }

    /// Loads the workspace at `root`, and writes the components.yaml `change` makes of it.
    private static func edit(_ root: URL, _ change: (Workspace) throws -> [UInt8]) throws {
        try AtomicFile.write(Data(try change(try unchecked(root))), to: root.appendingPathComponent(WorkspaceLoader.fileName))
    }

    /// The workspace at `root` as its components.yaml says, folders not checked: the copy is edited in steps,
    /// and between two of them a path may name what a later step removes or adds.
    private static func unchecked(_ root: URL) throws -> Workspace {
        try WorkspaceLoader.load(bytes: Array(try Data(contentsOf: root.appendingPathComponent(WorkspaceLoader.fileName))), root: root, checkingFolders: false)
    }

    /// Moves the finished workspace from `staging` into `target`, entry by entry, then removes `staging`.
    private static func place(_ staging: URL, in target: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: staging.path) {
            guard Foundation.rename(staging.appendingPathComponent(name).path, target.appendingPathComponent(name).path) == 0 else {
                let reason = String(cString: strerror(errno))
                for moved in (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? [] where !moved.hasPrefix(stagingPrefix) {
                    try? FileManager.default.removeItem(at: target.appendingPathComponent(moved))
                }
                throw ToolError("Cannot move the new workspace's \(name) into '\(target.path)': \(reason). Nothing was created.", status: .environment)
            }
        }
        try FileManager.default.removeItem(at: staging)
    }
}
