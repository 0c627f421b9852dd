public import Foundation
public import PluginFeed

/// `componentctl plugin pack`: a runtime plugin's release built as a shared library (release
/// configuration) from the tree of its release tag, and written as one signed archive.
public enum RuntimePluginPacker {
    /// Where pack builds: one scratch folder for every pack, so the shared packages build once.
    public static let scratchFolder = ".build-plugins"

    /// Packs `name` at `version` with `key` into the folder `output`, telling `report` what it builds.
    /// Returns the archive's path and manifest.
    public static func pack(
        _ context: VersionedWorkspace, name: String, version text: String, key: PluginSigningKey, output: URL,
        report: (String) -> Void = { _ in }
    ) throws -> (archive: URL, manifest: PluginManifest) {
        let workspace = context.workspace
        let component = try context.component(name)
        guard component.kind == .plugin, component.isRuntime else {
            throw ToolError(
                "'\(name)' is no runtime plugin. Mark a plugin component as shipped at run time with 'runtime: true' in components.yaml; "
                    + "other components are linked into the App.", status: .usage)
        }
        let version = try VersionedWorkspace.version(text)
        guard PluginVersion(version.description) != nil else {
            throw ToolError(
                "'\(text)' is no version a runtime plugin can ship: Apps install plain MAJOR.MINOR.PATCH versions (like 1.2.0), no pre-releases. "
                    + "Release \(name) with such a version and pack that.", status: .usage)
        }
        let plan = try PinPlanner.plan(context, component: component, version: version)
        let product = try libraryProduct(of: plan.manifest, name: name, tag: plan.release.tag)
        let hostAPI = try hostAPI(of: plan.manifest, workspace: workspace, plugin: name)
        let hostKeys = try hostKeys(of: hostAPI, context, plugin: plan.release.tag, report: report)

        // The release tree at the pin layout's depth, so its relative dependencies reach the live packages.
        let packFolder = plan.pinFolder.replacingOccurrences(
            of: PinLayout.pinFolderName(name, version.description), with: PinCheckout.scratchFolderName(name, version.description))
        let built = try PinCheckout.withScratchCheckout(
            folder: packFolder, checkout: packFolder + plan.checkout.dropFirst(plan.pinFolder.count), component: name, version: version.description,
            tree: plan.tree, root: workspace.root, repository: context.repository
        ) { checkout in
            let sources = try sourceFacts(in: checkout)
            guard let entry = sources.entries.first, sources.entries.count == 1 else {
                throw ToolError(
                    sources.entries.isEmpty
                        ? "\(plan.release.tag) declares no entry symbol. Add one function marked @_cdecl(\"\(name.replacingOccurrences(of: "-", with: "_"))_plugin_entry\") "
                            + "that returns RuntimePluginExport(...).retainedPointer() (see the rules for a plugin author in docs/runtime-plugins.md)."
                        : "\(plan.release.tag) declares several @_cdecl entries (\(sources.entries.joined(separator: ", "))); keep one.", status: .usage)
            }
            guard let point = component.extends else { throw ToolError("'\(name)' has no 'extends:' in components.yaml.", status: .usage) }
            let contributions = sources.definitions.map { PluginManifest.Contribution(point: point, plugin: $0) }
            guard !contributions.isEmpty || !sources.routes.isEmpty else {
                throw ToolError(
                    "\(plan.release.tag) contributes nothing: it defines no PluginDefinition with a literal id and registers no route.", status: .usage)
            }

            if let (route, problem) = sources.routes.lazy.compactMap({ route in RouteShape.problem(of: route).map { (route, $0) } }).first {
                throw ToolError(
                    "\(plan.release.tag) registers '\(route)', which is no route pattern the App accepts: \(problem). "
                        + "Fix the pattern and release it again.", status: .findings)
            }
            let others = PluginRouteOverlapCheck.routes(in: try WorkspaceAnalysis.analyze(workspace))
            let overlaps = sources.routes.compactMap { route in
                PluginRouteOverlapCheck.overlap(of: route, plugin: name, with: others).map { PluginRouteOverlapCheck.message(route, plugin: name, other: $0) }
            }
            guard overlaps.isEmpty else {
                throw ToolError(
                    "\(plan.release.tag) cannot be packed: " + overlaps.joined(separator: "; ")
                        + ". Give the plugin's routes URLs of their own (a host or first segment no other component uses) and release it again.",
                    status: .findings)
            }

            let scratch = workspace.root.appendingPathComponent(scratchFolder)
            let swift = try Toolchain.current()
            report("Building \(product) of \(plan.release.tag) (release)...\n")
            let build = try ProcessRunner.run(
                swift.executable,
                ["build", "-c", "release", "--package-path", checkout.path, "--scratch-path", scratch.path, "--product", product]
                    + pathMapping(root: workspace.root.path) + ["-Xlinker", "-soname", "-Xlinker", "lib\(product).so"])
            guard build.status == 0 else {
                // The build's folder is gone when this is read: its paths are given as the component's, at the tag.
                let log = (build.text + build.errorText).replacingOccurrences(of: checkout.path, with: component.path)
                throw ToolError(
                    "Building \(product) of \(plan.release.tag) failed (paths name the files as they are at that tag: "
                        + "git show \(plan.release.tag):\(component.path)/...):\n"
                        + log.split(separator: "\n").suffix(30).joined(separator: "\n"),
                    status: .buildFailed)
            }
            let libraryName = "lib\(product).so"
            let library = try Data(contentsOf: scratch.appendingPathComponent("release").appendingPathComponent(libraryName))
            return (entry: entry, contributions: contributions, routes: sources.routes, swift: swift, library: library, libraryName: libraryName)
        }
        let (entry, contributions, routes, swift, library, libraryName) = built
        let manifest = PluginManifest(
            id: name, version: version.description, entry: entry, library: libraryName, sha256: Digest.sha256(library), size: library.count,
            contributions: contributions, routes: routes, hostAPI: hostAPI, hostKeys: hostKeys, swift: swift.version, swiftRuntime: swift.runtimeDigest)
        let manifestData = try manifest.encoded()
        let archive = try PluginArchive(files: [
            PluginArchive.manifestName: manifestData, PluginArchive.signatureName: try key.sign(manifestData), libraryName: library,
        ]).encoded()
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file = output.appendingPathComponent("\(name)-\(version.description).tar")
        try AtomicFile.write(archive, to: file)
        return (file, manifest)
    }

    /// Compiler options that write the workspace's folder as `.` into what the library records of its
    /// sources (#file, #filePath, debug information): no path of the packing machine ships in it (with a
    /// `-soname`, which the linker would otherwise fill with the library's path).
    static func pathMapping(root: String) -> [String] {
        ["-Xswiftc", "-file-prefix-map", "-Xswiftc", "\(root)=.", "-Xcc", "-ffile-prefix-map=\(root)=."]
    }

    /// The package's dynamic library product: the one `type: .dynamic` library.
    static func libraryProduct(of manifest: PackageManifest, name: String, tag: String) throws -> String {
        let dynamic = manifest.products.filter(\.isDynamicLibrary)
        guard dynamic.count == 1, let product = dynamic.first else {
            throw ToolError(
                "The Package.swift of \(tag) must declare exactly one `.library(name: ..., type: .dynamic, targets: [...])` product: "
                    + "the library the App loads (it has \(dynamic.count)).", status: .usage)
        }
        return product.name
    }

    /// The exact version of each workspace component `manifest` depends on, directly or through them.
    static func hostAPI(of manifest: PackageManifest, workspace: Workspace, plugin: String) throws -> [String: String] {
        let analysis = try WorkspaceAnalysis.analyze(workspace)
        let byFolder = Dictionary(workspace.components.map { ($0.folderName.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var queue = manifest.dependencies.compactMap { byFolder[$0.identity] }
        var versions: [String: String] = [:]
        while let component = queue.popLast() {
            guard versions[component.name] == nil else { continue }
            guard let version = component.version else {
                throw ToolError(
                    "'\(plugin)' is built against '\(component.name)', which has no version in components.yaml. Release it first: "
                        + "componentctl release \(component.name) 1.0.0", status: .usage)
            }
            versions[component.name] = version
            queue += (analysis.packages[component.name]?.manifest?.dependencies ?? []).compactMap { byFolder[$0.identity] }
        }
        return versions
    }

    /// The content key of each component of `hostAPI`, which the plugin is built against as the working tree holds it.
    /// Refuses when one differs from its release (its tag `<name>@<version>`: the folder's tree there, and the key the
    /// apps' wiring of that commit records): no App built from the release would load the plugin. One without a
    /// release tag is said in a warning, since only an App built from this very content will.
    static func hostKeys(of hostAPI: [String: String], _ context: VersionedWorkspace, plugin: String, report: (String) -> Void) throws -> [String: String] {
        var keys = try ComponentKeys(contentOf: context, analysis: WorkspaceAnalysis.analyze(context.workspace, readSources: false), staged: [:])
        let current = try hostAPI.keys.reduce(into: [String: String]()) { found, name in found[name] = try keys.key(of: name).key }
        let trees = try WorkingTrees(context.repository)
        var differing: [String] = [], untagged: [String] = []
        for (name, version) in hostAPI.sorted(by: { $0.key < $1.key }) {
            let path = context.repositoryPath(of: try context.component(name))
            guard let tag = try context.repository.resolveTag("\(name)@\(version)") else {
                untagged.append("\(name) \(version)")
                continue
            }
            if try context.repository.tree(of: tag.commit, path: path) != trees.treeID(of: path) {
                differing.append("'\(name)' (\(path)) differs from its release \(name)@\(version) (git diff \(name)@\(version) -- \(path); git status \(path))")
            } else if let released = try releasedKey(name, at: tag.commit, context), released != current[name] {
                differing.append(
                    "'\(name)' is as released in \(name)@\(version), but what else its content key covers changed since (its external packages, "
                        + "the lock or the workspace's inputs: componentctl hash --content \(name) --explain)")
            }
        }
        guard differing.isEmpty else {
            throw ToolError(
                "\(plugin) cannot be packed: " + differing.joined(separator: "; ")
                    + ". An App built from the release would refuse the plugin, and one built from these changes claims the same version. "
                    + "Release the changes under a new version (componentctl release NAME NEW-VERSION), or undo them.",
                status: .findings)
        }
        if !untagged.isEmpty {
            let named = untagged.prefix(5).joined(separator: ", ") + (untagged.count > 5 ? " and \(untagged.count - 5) more" : "")
            report(
                "warning: \(named) \(untagged.count == 1 ? "has" : "have") no release tag here: \(plugin) fits only an App built "
                    + "from their content as it is now (fetch the tags: git fetch --tags).\n")
        }
        return current
    }

    /// The content key of `name` that the apps' wiring at `commit` records (a release commits it), if any does.
    private static func releasedKey(_ name: String, at commit: GitOID, _ context: VersionedWorkspace) throws -> String? {
        for app in context.workspace.apps {
            guard let bytes = try context.repository.file(at: context.repositoryPath(app.folder + "/GeneratedApp.swift"), in: commit) else { continue }
            if let key = AppSources.recordedKeys(in: bytes)[name] { return key }
        }
        return nil
    }

    /// The entry symbols (`@_cdecl("...")`), plugin definition ids and route patterns of the Swift sources under `folder`.
    static func sourceFacts(in folder: URL) throws -> (entries: [String], definitions: [String], routes: [String]) {
        var entries: [String] = [], definitions: [String] = [], routes: [String] = []
        let sources = folder.appendingPathComponent("Sources")
        for path in SwiftFiles.under(sources, skipping: []) {
            let bytes = [UInt8](try Data(contentsOf: sources.appendingPathComponent(path)))
            definitions += PluginScanner.scan(bytes).definitions.compactMap(\.id)
            routes += bytes.withUnsafeBufferPointer { ImportScanner.scan($0).routes.map(\.pattern) }
            entries += self.entries(in: bytes)
        }
        return (entries, definitions, Array(Set(routes)).sorted())
    }
}

/// The Swift toolchain builds use (`COMPONENTCTL_SWIFT`, else the `swift` on the PATH): its `swift`, version and runtime library.
struct Toolchain {
    var executable: URL
    var version: String
    var runtimeDigest: String

    static func current() throws -> Toolchain {
        let swift = URL(fileURLWithPath: BuildPlanner.swiftExecutable(environment: ProcessInfo.processInfo.environment))
        let versionOutput = try ProcessRunner.run(swift, ["--version"])
        guard versionOutput.status == 0,
            let line = (versionOutput.text + versionOutput.errorText).split(separator: "\n").first(where: { $0.contains("Swift version") })
        else { throw ToolError("'swift --version' failed; put the Swift toolchain on the PATH.", status: .environment) }
        let version = line.components(separatedBy: "Swift version ").last?.split(separator: " ").first.map(String.init) ?? String(line)
        let info = try ProcessRunner.run(swift, ["-print-target-info"])
        struct TargetInfo: Decodable {
            struct Paths: Decodable { var runtimeLibraryPaths: [String] }
            var paths: Paths
        }
        let paths = (try? JSONDecoder().decode(TargetInfo.self, from: info.standardOutput))?.paths.runtimeLibraryPaths ?? []
        guard
            let core = paths.map({ URL(fileURLWithPath: $0).appendingPathComponent("libswiftCore.so") }).first(where: {
                FileManager.default.fileExists(atPath: $0.path)
            })
        else {
            throw ToolError(
                "Cannot find the toolchain's libswiftCore.so ('swift -print-target-info' names no runtime library path holding it).", status: .environment)
        }
        return Toolchain(executable: swift, version: version, runtimeDigest: try RuntimeIdentity.of(library: core))
    }
}

extension RuntimePluginPacker {
    /// The names of the `@_cdecl("name")` attributes of the Swift source `bytes`, outside line comments.
    public static func entries(in bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var names: [String] = []
        for line in text.split(separator: "\n") {
            let code = line.drop { $0 == " " }
            guard !code.hasPrefix("//"), let start = code.range(of: "@_cdecl(\"") else { continue }
            let rest = code[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            names.append(String(rest[..<end]))
        }
        return names
    }
}
