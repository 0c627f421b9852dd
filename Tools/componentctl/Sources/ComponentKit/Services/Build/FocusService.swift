public import Foundation

/// `componentctl run --focus COMPONENT`: a throw-away app of one component and exactly what it needs,
/// generated as a package of its own, `.build/componentctl/focus-<name>/`, that builds on the root package's
/// shell. What it needs: a feature's linked plugins and the features whose services it resolves (a
/// plugin: its feature); everything they depend on comes along, every other feature answers "not in
/// this app".
public enum FocusService {
    /// A prepared focus app.
    public struct Focus: Sendable {
        /// The components the app contains.
        public var members: [String]
        /// Its package folder.
        public var folder: URL
        /// Its executable product.
        public var product: String
    }

    /// Writes the focus package of `name` (atomically, file by file) and says what it holds.
    public static func prepare(_ workspace: Workspace, component name: String) throws -> Focus {
        guard let component = workspace.component(named: name) else { throw workspace.unknownComponent(name) }
        let top = workspace.rules.layers.first ?? ""
        guard component.layer == top, component.kind != .interface, !component.isRuntime else {
            throw ToolError(
                "'\(name)' is \(component.kind == .interface ? "an interface" : component.isRuntime ? "a runtime plugin" : "in layer \(component.layer)"): "
                    + "a focused app is made around a \(top) feature or a linked plugin. See 'componentctl list'.", status: .usage)
        }
        guard FileStatus.isRealFolder(workspace.root.appendingPathComponent(AppPlan.shellFolder)) else {
            throw ToolError("There is no shell at \(AppPlan.shellFolder) for a focused app to run in.", status: .usage)
        }
        let analysis = try WorkspaceAnalysis.analyze(workspace)
        let members = try focusMembers(component, analysis: analysis)
        let feature = component.kind == .plugin ? workspace.host(of: component) : component
        let start = feature.flatMap { $0.interface }.flatMap { interface in
            (analysis.packages[interface]?.targets ?? []).flatMap { $0.files.flatMap(\.routes) }.map(\.pattern).first { pattern in
                // A route without parameters (`<int:id>`, `:name`) opens as it is written.
                let path = pattern.components(separatedBy: "://").last ?? pattern
                return !path.contains("<") && !path.contains(":")
            }
        }
        let product = upperCamelCase(name) + "Focus"
        var app = AppDeclaration(
            name: "focus-\(name)", product: product, members: members.map { .init(name: $0, location: component.location) }, location: component.location)
        app.start = start
        let catalog = PluginCatalog(analysis)
        let plan = try AppPlan.make(
            app, analysis: analysis, catalog: catalog, shell: AppPlan.shellComponents(analysis),
            shellAPI: AppManifest.shellModules(analysis, publicOnly: true))
        let folder = workspace.root.appendingPathComponent(".build/componentctl/focus-\(name)")
        let sources = folder.appendingPathComponent("Sources/\(product)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let keys = try AppWiring.hostKeys(workspace, analysis: analysis, components: plan.linked, staged: [:])
        for (path, bytes) in try AppSources.files(plan, workspace: workspace, keys: keys) {
            try AtomicFile.write(Data(bytes), to: sources.appendingPathComponent((path as NSString).lastPathComponent))
        }
        try AtomicFile.write(Data(try manifest(plan, product: product, analysis: analysis).utf8), to: folder.appendingPathComponent("Package.swift"))
        return Focus(members: members, folder: folder, product: product)
    }

    /// The component, its plugins (a feature's) or its feature (a plugin's), and the features whose services they resolve.
    static func focusMembers(_ component: Component, analysis: WorkspaceAnalysis) throws -> [String] {
        let workspace = analysis.workspace
        var members = [component.name]
        if component.kind == .plugin, let host = workspace.host(of: component) { members.append(host.name) }
        if component.kind == .implementation {
            members += workspace.components.filter { $0.kind == .plugin && !$0.isRuntime && workspace.host(of: $0)?.name == component.name }.map(\.name)
        }
        let index = AppUseScanner.Index(analysis)
        for member in members where workspace.component(named: member)?.kind == .implementation {
            for site in index.sites(in: AppUseScanner.files(of: member, in: analysis)) where site.use.isService && !members.contains(site.provider) {
                members.append(site.provider)
            }
        }
        return members
    }

    /// The focus package's manifest: the root package for the shell, each component package its sources
    /// name, at the path the root's manifest uses (a pinned checkout stays pinned).
    private static func manifest(_ plan: AppPlan, product: String, analysis: WorkspaceAnalysis) throws -> String {
        let root = analysis.workspace.root
        let rootText = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        let paths = ComponentPaths(analysis.workspace)
        var rootPaths: [String: String] = [:]
        for line in rootText.split(separator: "\n") {
            guard let call = line.range(of: ".package(path: \""), let close = line.range(of: "\")", range: call.upperBound..<line.endIndex) else { continue }
            let path = String(line[call.upperBound..<close.lowerBound])
            if let component = paths.component(at: path) { rootPaths[component.name] = path }
        }
        let modules = Set(plan.shellAPI + plan.modules.map(\.module) + plan.points.map(\.module) + plan.definitions.map(\.module)).sorted()
        let owners = Set(modules.compactMap { analysis.moduleOwners[$0] })
        let packages = analysis.workspace.components.filter { owners.contains($0.name) }.map { component in
            "        .package(path: \(swiftString(root.appendingPathComponent(rootPaths[component.name] ?? component.path).path))),\n"
        }
        let products =
            try [".product(name: \"Shell\", package: \(swiftString(root.lastPathComponent)))"] + modules.map { try AppManifest.product(of: $0, analysis) }
        return """
            // swift-tools-version: 6.0
            // Generated by `componentctl run --focus`: a throw-away app, rewritten at every run.
            import PackageDescription

            let package = Package(
                name: \(swiftString(product)),
                dependencies: [
                    .package(path: \(swiftString(root.path))),
            \(packages.joined())    ],
                targets: [
                    .executableTarget(name: \(swiftString(product)), dependencies: [\(products.joined(separator: ", "))])
                ]
            )

            """
    }
}
