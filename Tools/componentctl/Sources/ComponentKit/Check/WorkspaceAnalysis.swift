import Foundation
import Synchronization

/// A Swift source file of a target and the imports it makes.
public struct SourceFile: Sendable {
    /// The file, relative to the workspace root.
    public var path: String
    /// Its import declarations.
    public var imports: [ImportDeclaration]
    /// The route patterns it declares or registers.
    public var routes: [RouteDeclaration] = []
    /// The extension points it declares (interfaces only).
    public var extensionPoints: [ExtensionPointDeclaration] = []
    /// The plugin definitions it declares (plugins only).
    public var pluginDefinitions: [PluginDefinitionDeclaration] = []
    /// The modules it declares (implementations only).
    public var appModules: [AppModuleDeclaration] = []
}

/// A target of a component with its sources.
public struct TargetAnalysis: Sendable {
    /// The declaration in Package.swift.
    public var declaration: TargetDeclaration
    /// Its Swift files.
    public var files: [SourceFile]
    /// Whether it also compiles C, C++ or Objective-C files, whose imports are not read.
    public var hasOtherSources = false
}

/// A manifest-level dependency of one component on another.
public struct ComponentEdge: Sendable, Hashable {
    /// The depending component.
    public var from: String
    /// The component depended on.
    public var to: String
    /// Where `.package(path:)` names it.
    public var location: ManifestLocation
}

/// One component's package: its manifest, its edges to other components and its targets.
public struct ComponentPackage: Sendable {
    /// The component.
    public var component: Component
    /// The manifest's path, relative to the workspace root.
    public var manifestPath: String
    /// The manifest, or nil when it could not be read (a diagnostic says why).
    public var manifest: PackageManifest?
    /// Dependencies on other components, resolved by path.
    public var edges: [ComponentEdge]
    /// `.package(path:)` dependencies that are no component.
    public var unknownPaths: [PackageDependency]
    /// The targets and their sources.
    public var targets: [TargetAnalysis]

    /// The modules the component defines (its importable targets).
    public var modules: [String] { targets.filter(\.declaration.isImportable).map(\.declaration.moduleName) }
}

/// Everything check-layers, why and graph need, read once.
public struct WorkspaceAnalysis: Sendable {
    /// The workspace.
    public var workspace: Workspace
    /// Each component's package, by component name.
    public var packages: [String: ComponentPackage]
    /// Which component defines each module.
    public var moduleOwners: [String: String]
    /// Problems reading manifests.
    public var problems: [Diagnostic]
    /// How many Swift files were read.
    public var fileCount: Int

    /// The components whose manifest could not be read, sorted: their edges are unknown.
    public var unreadableComponents: [String] { packages.filter { $0.value.manifest == nil }.map(\.key).sorted() }

    /// The analysis of only `names`' components, and the edges between them (`graph --app`).
    public func restricted(to names: Set<String>) -> WorkspaceAnalysis {
        var copy = self
        copy.workspace.components = workspace.components.filter { names.contains($0.name) }
        copy.packages = packages.filter { names.contains($0.key) }.mapValues { package in
            var package = package
            package.edges = package.edges.filter { names.contains($0.to) }
            return package
        }
        return copy
    }

    /// Reads every component's manifest and sources, components in parallel on every core.
    ///
    /// With `scanImports` false the sources are only read, not lexed: the benchmark's anchor. With
    /// `readSources` false only the manifests are read: enough for the dependency graph. A manifest that cannot be read
    /// is a problem of its component; what stops the reading of any (a request to stop, a setting of componentctl's) is
    /// thrown.
    public static func analyze(_ workspace: Workspace, scanImports: Bool = true, readSources: Bool = true) throws -> WorkspaceAnalysis {
        let byPath = Dictionary(workspace.components.map { (LexicalPath.resolve(workspace.folder(of: $0).path), $0.name) }, uniquingKeysWith: { a, _ in a })
        let results = Mutex<[String: Result<(ComponentPackage, Diagnostic?), ToolError>]>([:])
        let components = workspace.components
        DispatchQueue.concurrentPerform(iterations: components.count) { index in
            let result = Result { () throws(ToolError) in
                try analyze(components[index], in: workspace, componentsByPath: byPath, scanImports: scanImports, readSources: readSources)
            }
            results.withLock { $0[components[index].name] = result }
        }
        let collected = try results.withLock { $0 }.mapValues { try $0.get() }
        var packages: [String: ComponentPackage] = [:]
        var problems: [Diagnostic] = []
        var owners: [String: String] = [:]
        for component in components {
            guard let (package, problem) = collected[component.name] else { continue }
            packages[component.name] = package
            if let problem { problems.append(problem) }
            for module in package.modules { owners[module] = owners[module] ?? component.name }
        }
        let files = packages.values.reduce(0) { $0 + $1.targets.reduce(0) { $0 + $1.files.count } }
        return WorkspaceAnalysis(workspace: workspace, packages: packages, moduleOwners: owners, problems: problems, fileCount: files)
    }

    private static func analyze(
        _ component: Component, in workspace: Workspace, componentsByPath: [String: String], scanImports: Bool, readSources: Bool
    ) throws(ToolError) -> (ComponentPackage, Diagnostic?) {
        let folder = workspace.folder(of: component)
        let manifestPath = component.path + "/Package.swift"
        var package = ComponentPackage(component: component, manifestPath: manifestPath, manifest: nil, edges: [], unknownPaths: [], targets: [])
        let manifest: PackageManifest
        do {
            manifest = try workspace.manifests.load(packageIn: folder).locatingSources(in: folder)
        } catch let error as ToolError {
            throw error
        } catch {
            let location = (error as? ManifestError)?.location ?? ManifestLocation(line: 1, column: 1)
            let diagnostic = Diagnostic(
                path: manifestPath, line: location.line, column: location.column,
                message: "cannot read the manifest of '\(component.name)': \(error)",
                fix: (error as? ManifestError)?.fix
                    ?? "make it a valid Package.swift declaring 'let package = Package(...)' "
                    + "(swift package --package-path \(component.path) dump-package shows what SwiftPM reads)",
                rule: "unreadable-manifest")
            return (package, diagnostic)
        }
        package.manifest = manifest
        for dependency in manifest.dependencies {
            guard let path = dependency.path else { continue }
            let target = LexicalPath.resolve(path, from: folder.path)
            if let name = componentsByPath[target] {
                package.edges.append(ComponentEdge(from: component.name, to: name, location: dependency.location))
            } else {
                package.unknownPaths.append(dependency)
            }
        }
        package.targets = manifest.targets.map { declaration in
            guard readSources else { return TargetAnalysis(declaration: declaration, files: []) }
            return sources(of: declaration, in: folder, relativeTo: component.path, scanImports: scanImports, kind: component.kind)
        }
        return (package, nil)
    }

    /// The C-family source extensions SwiftPM compiles.
    private static let otherSourceExtensions: Set<String> = ["c", "m", "mm", "cc", "cpp", "cxx", "c++", "s", "S"]

    /// The target's sources as SwiftPM compiles them: below its folder, only its `sources:` when it names them, never its
    /// `exclude:`.
    private static func sources(
        of target: TargetDeclaration, in folder: URL, relativeTo prefix: String, scanImports: Bool, kind: ComponentKind
    ) -> TargetAnalysis {
        let root = folder.appendingPathComponent(target.sourceFolder)
        var analysis = TargetAnalysis(declaration: target, files: [])
        // As a reader writes it: a `path: "./"` adds no `.` to the paths findings name.
        let shownFolder = (LexicalPath.parts(of: prefix + "/" + target.sourceFolder, aboveTop: .stay) ?? []).joined(separator: "/")
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return analysis }
        let included = target.sources.map { $0.map(trimmedFolder) }
        let excluded = target.exclude.map(trimmedFolder)
        func contains(_ folders: [String], _ relative: String) -> Bool { folders.contains { relative == $0 || relative.hasPrefix($0 + "/") } }
        while let relative = enumerator.nextObject() as? String {
            if contains(excluded, relative) || included.map({ !contains($0, relative) && !$0.contains { $0.hasPrefix(relative + "/") } }) == true {
                enumerator.skipDescendants()
                continue
            }
            guard relative.hasSuffix(".swift") else {
                if let dot = relative.lastIndex(of: "."), otherSourceExtensions.contains(String(relative[relative.index(after: dot)...])) {
                    analysis.hasOtherSources = true
                }
                continue
            }
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path) else { continue }
            let (imports, routes) = scanImports ? data.withUnsafeBytes { raw in ImportScanner.scan(raw.bindMemory(to: UInt8.self)) } : ([], [])
            var file = SourceFile(path: "\(shownFolder)/\(relative)", imports: imports, routes: target.kind == .regular ? routes : [])
            if scanImports, target.kind == .regular {
                let facts = PluginScanner.scan(Array(data))
                switch kind {
                case .interface: file.extensionPoints = facts.points
                case .plugin: file.pluginDefinitions = facts.definitions
                case .implementation: file.appModules = facts.modules
                }
            }
            analysis.files.append(file)
        }
        analysis.files.sort { $0.path < $1.path }
        return analysis
    }

    /// `path` without `./` and trailing slashes, as `sources:` and `exclude:` entries may be written.
    private static func trimmedFolder(_ path: String) -> String {
        path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
