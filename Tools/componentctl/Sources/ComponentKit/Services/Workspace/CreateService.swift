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
    /// behind when it fails: the workspace is put together in a folder beside `folder` and renamed into place.
    public static func create(from source: Workspace, into folder: URL, options: Options) throws -> CommandResult {
        let scheme = options.scheme ?? options.name.lowercased()
        try check(options, scheme: scheme)
        let target = folder.standardizedFileURL
        try checkTarget(target, source: source)
        removeAbandonedStaging(for: target)
        let staging = target.deletingLastPathComponent().appendingPathComponent(stagingPrefix(for: target) + "\(getpid())")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        var placed = false
        defer { if !placed { try? FileManager.default.removeItem(at: staging) } }

        try copyFramework(of: source, to: staging)
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
            } catch let error as ToolError {
                throw ToolError(
                    "The framework still uses the sample, so a workspace without it would not build. \(error.message)\n"
                        + "Make those files independent of the layer \(top), or list them under workspace.sample (they are then left out). "
                        + "Nothing was created.", status: error.exitStatus)
            }
        }
        for path in sample.map(\.path) { try? FileManager.default.removeItem(at: staging.appendingPathComponent(path)) }
        let starter = try ScaffoldService.create(
            try WorkspaceLoader.load(root: staging), name: options.feature, layer: top, interface: true, apps: app.map { [$0] } ?? [])
        // A feature in the house style (the workspace has the router and screens) opens a route: the app starts there.
        let created = try WorkspaceLoader.load(root: staging)
        let start = ScaffoldService.isRoutedFeature(in: created, layer: top) ? "\(scheme)://\(Templates.host(of: options.feature))" : nil
        if let start { try edit(staging) { try ComponentsFileEditor.settingWorkspace("start", to: start, in: $0) } }
        // The baseline's entries about the sample's files match nothing any more: they go, as --update-baseline drops them.
        if created.checks.baseline != nil {
            _ = try CheckLayersService.run(try WorkspaceLoader.load(root: staging), options: CheckLayersService.Options(updateBaseline: true))
        }
        let synced = try SyncService.sync(try VersionedWorkspace(WorkspaceLoader.load(root: staging)), check: false)
        guard synced.status == .ok else { return synced }
        try place(staging, at: target)
        placed = true

        let made = [
            app.map { "the app '\($0)' (product \(upperCamelCase($0)))" }, "its first feature \(options.feature)" + (start.map { " at \($0)" } ?? ""),
        ].compactMap { $0 }
        var next = ["cd \(target.path)"]
        if let app { next += ["make app    # builds and opens \(upperCamelCase(app))", "componentctl new NAME --layer \(top) --app \(app)"] }
        next.append("git add -A && git commit -m '\(options.name), created'")
        return CommandResult(
            output: "Created the workspace \(options.name) in \(target.path): the framework of \(source.name), \(made.joined(separator: ", ")), "
                + "and none of its sample (\(sample.count) components of the layer \(top)\(source.sample.isEmpty ? "" : ", \(source.sample.count) paths of workspace.sample")).\n"
                + "Next:\n" + next.map { "  \($0)\n" }.joined(),
            errors: starter.errors)
    }

    /// The name of the folder beside `target` a run puts the workspace together in, before its process id.
    private static func stagingPrefix(for target: URL) -> String { ".\(target.lastPathComponent).creating-" }

    /// Deletes what a run killed before it could clean up left beside `target`: folders of this command's
    /// naming whose process is gone.
    private static func removeAbandonedStaging(for target: URL) {
        let parent = target.deletingLastPathComponent()
        let prefix = stagingPrefix(for: target)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Refuses a name, scheme or feature name the new workspace cannot take.
    private static func check(_ options: Options, scheme: String) throws {
        guard options.name.first?.isUppercase == true, options.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ToolError(
                "--name '\(options.name)' is no workspace name: use UpperCamelCase letters and digits, like Notes (its app's product is named after it).",
                status: .usage)
        }
        guard scheme.range(of: "^[a-z][a-z0-9+.-]*$", options: .regularExpression) != nil else {
            throw ToolError(
                "--scheme '\(scheme)' is no URL scheme: use lower-case letters, digits, '+', '.' or '-', starting with a letter, like notes.",
                status: .usage)
        }
        try ScaffoldService.checkName(options.feature)
    }

    /// Refuses a target that exists with files in it, has no parent folder, or lies inside `source`.
    private static func checkTarget(_ target: URL, source: Workspace) throws {
        let root = source.root.standardizedFileURL.resolvingSymlinksInPath().path
        let parent = target.deletingLastPathComponent().resolvingSymlinksInPath().path
        // Inside the workspace it would become part of it, unless git ignores the place (a build folder).
        if parent == root || parent.hasPrefix(root + "/") || target.path == root, !isIgnored(target, in: source) {
            throw ToolError(
                "'\(target.path)' is inside the workspace \(source.name) at \(root); a new workspace lives beside it: componentctl create ../\(target.lastPathComponent) ...",
                status: .usage)
        }
        guard FileStatus.isFolder(target.deletingLastPathComponent()) else {
            throw ToolError("The folder '\(parent)' does not exist: make it first (mkdir -p '\(parent)'), or name a folder in one that exists.", status: .usage)
        }
        guard FileStatus.exists(target) else { return }
        guard FileStatus.isRealFolder(target), (try FileManager.default.contentsOfDirectory(atPath: target.path)).isEmpty else {
            throw ToolError("'\(target.path)' already exists and is not an empty folder; name a new folder, or an empty one.", status: .usage)
        }
    }

    private static func isIgnored(_ target: URL, in source: Workspace) -> Bool {
        guard let repository = try? GitRepository(containing: source.root), let path = repository.relativePath(of: target.resolvingSymlinksInPath()),
            !path.isEmpty
        else { return false }
        return (try? repository.isIgnored(path + "/")) ?? false
    }

    /// Copies the files of `source` that git tracks or would track, without the sample's own files and the apps' folders.
    private static func copyFramework(of source: Workspace, to staging: URL) throws {
        let repository = try GitRepository(containing: source.root)
        let left = Set(source.sample + source.apps.map(\.folder) + ["components.lock"])
        let manager = FileManager.default
        func copy(_ relative: String) throws {
            let from = relative.isEmpty ? source.root : source.root.appendingPathComponent(relative)
            for name in try manager.contentsOfDirectory(atPath: from.path).sorted() where name != ".git" {
                let path = relative.isEmpty ? name : relative + "/" + name
                let url = from.appendingPathComponent(name)
                let isFolder = FileStatus.isRealFolder(url)
                guard !left.contains(path), !(try repository.isIgnored(repositoryPath(path, of: source, in: repository) + (isFolder ? "/" : ""))) else {
                    continue
                }
                if isFolder {
                    try copy(path)
                } else {
                    let destination = staging.appendingPathComponent(path)
                    try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try manager.copyItem(at: url, to: destination)
                    if path.hasSuffix(".md") { try dropSampleBlocks(in: destination) }
                }
            }
        }
        try copy("")
    }

    /// The opening and closing lines of a Markdown file's passage about the sample, which a new workspace leaves out.
    static let sampleBlock = (begin: "<!-- sample -->", end: "<!-- /sample -->")

    /// Takes the sample's passages out of the Markdown file at `url`, their marker lines with them.
    static func dropSampleBlocks(in url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(sampleBlock.begin) else { return }
        var inside = false
        var kept: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker == sampleBlock.begin {
                inside = true
            } else if marker == sampleBlock.end {
                inside = false
            } else if !inside {
                kept.append(line)
            }
        }
        try Data(kept.joined(separator: "\n").utf8).write(to: url)
    }

    private static func repositoryPath(_ path: String, of source: Workspace, in repository: GitRepository) -> String {
        let prefix = repository.relativePath(of: source.root) ?? ""
        return prefix.isEmpty ? path : prefix + "/" + path
    }

    /// Pins name tags of the template's repository, which the new one does not have: its components start unpinned.
    private static func dropPins(in staging: URL) throws {
        let workspace = try WorkspaceLoader.load(
            bytes: Array(try Data(contentsOf: staging.appendingPathComponent(WorkspaceLoader.fileName))), root: staging, checkingFolders: false)
        for component in workspace.components where component.pin != nil {
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
                      \(app):
                        components: []
                        # What belongs to the app besides its components and its folder \(AppWiring.appsFolder)/\(app): a change here affects it (`componentctl affected`).
                        paths: [\(paths.joined(separator: ", "))]

                    """, in: $0)
        }
    }

    /// Loads the workspace at `root`, and writes the components.yaml `change` makes of it.
    private static func edit(_ root: URL, _ change: (Workspace) throws -> [UInt8]) throws {
        let workspace = try WorkspaceLoader.load(
            bytes: Array(try Data(contentsOf: root.appendingPathComponent(WorkspaceLoader.fileName))), root: root, checkingFolders: false)
        try AtomicFile.write(Data(try change(workspace)), to: root.appendingPathComponent(WorkspaceLoader.fileName))
    }

    /// Renames the finished workspace into place; an empty folder there is replaced, as rename(2) allows.
    private static func place(_ staging: URL, at target: URL) throws {
        guard Foundation.rename(staging.path, target.path) == 0 else {
            throw ToolError(
                "Cannot move the new workspace to '\(target.path)': \(String(cString: strerror(errno))). Nothing was created.", status: .environment)
        }
    }
}
