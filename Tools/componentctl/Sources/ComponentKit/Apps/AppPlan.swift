import Foundation

/// What one app links and boots, worked out from its declaration, the components' manifests and the
/// sources: the closure of its components, the shell's own components, its modules, plugins and the
/// features it leaves out.
public struct AppPlan: Sendable {
    /// A feature the app leaves out, with its routes (from its interface) and what they do instead.
    public struct Absent: Sendable, Hashable {
        /// The left-out implementation.
        public var component: String
        /// The route patterns its interface declares.
        public var patterns: [String]
        /// What the app declares for it; nil when it declares nothing (the App says "not in this app").
        public var behaviour: AppDeclaration.Missing?
    }

    /// The app.
    public var app: AppDeclaration
    /// Every component the app links: its members, the shell's components and all they depend on.
    public var linked: Set<String>
    /// The modules it boots, in the order its components are listed.
    public var modules: [PluginCatalog.Module]
    /// Its plugin components' definitions.
    public var definitions: [PluginCatalog.Definition]
    /// The extension points its features own that plugins (linked or runtime) extend.
    public var points: [PluginCatalog.Point]
    /// The `plugins:` entries of its plugins.
    public var declarations: [PluginEntry]
    /// The features it leaves out.
    public var absent: [Absent]
    /// The route patterns of each of its features and plugins (its interface's and its own): what answers
    /// "temporarily unavailable" when that module is disabled at run time.
    public var routes: [String: [String]]
    /// The modules of the shell's API (its `public import`s): the generated sources name their types.
    public var shellAPI: [String]

    /// The folder of the hand-written shell every app runs in, relative to the workspace root.
    public static let shellFolder = "App/Shell"

    /// The components the shell's sources import, and what they depend on.
    public static func shellComponents(_ analysis: WorkspaceAnalysis) -> Set<String> {
        closure(of: Set(AppManifest.shellModules(analysis).compactMap { analysis.moduleOwners[$0] }), analysis)
    }

    /// The components each app is made of, by app name: its members, the shell's components, all they
    /// depend on, and the runtime plugins of its features (which it loads when they are installed).
    public static func linkedComponents(_ analysis: WorkspaceAnalysis) -> [String: Set<String>] {
        let shell = shellComponents(analysis)
        let workspace = analysis.workspace
        let runtime = workspace.components.filter(\.isRuntime)
        return Dictionary(
            workspace.apps.map { app in
                let linked = closure(of: Set(app.componentNames), analysis).union(shell)
                let loaded = runtime.filter { plugin in workspace.host(of: plugin).map { linked.contains($0.name) } ?? false }.map(\.name)
                return (app.name, linked.union(loaded))
            }, uniquingKeysWith: { a, _ in a })
    }

    /// The components of every app `--app` may name: ``linkedComponents(_:)``, and for each app an Xcode project assembles
    /// (`xcode-apps:`), the components it links and what they depend on.
    public static func componentsOfEveryApp(_ analysis: WorkspaceAnalysis) -> [String: Set<String>] {
        var linked = linkedComponents(analysis)
        for app in analysis.workspace.xcodeApps where linked[app.name] == nil { linked[app.name] = closure(of: Set(app.components), analysis) }
        return linked
    }

    /// `names` and every component they depend on, through the manifests.
    public static func closure(of names: Set<String>, _ analysis: WorkspaceAnalysis) -> Set<String> {
        var result = Set<String>()
        var queue = Array(names)
        while let name = queue.popLast() {
            guard result.insert(name).inserted else { continue }
            queue += analysis.packages[name]?.edges.map(\.to) ?? []
        }
        return result
    }

    /// The plan of `app`; throws when a component's facts cannot be wired (no definition, two modules).
    static func make(
        _ app: AppDeclaration, analysis: WorkspaceAnalysis, catalog: PluginCatalog, shell: Set<String>, shellAPI: [String],
        stagedRoutes: [String: [String]] = [:]
    ) throws -> AppPlan {
        let workspace = analysis.workspace
        let members = app.componentNames.compactMap(workspace.component(named:))
        let linked = closure(of: Set(members.map(\.name)), analysis).union(shell)
        var modules: [PluginCatalog.Module] = []
        var definitions: [PluginCatalog.Definition] = []
        for component in members {
            switch component.kind {
            case .implementation:
                let declared = catalog.modules[component.name] ?? []
                guard declared.count <= 1 else {
                    throw AppWiring.refusal(
                        "'\(component.name)' declares \(declared.count) types conforming to AppModule (\(declared.map(\.typeName).joined(separator: ", "))); "
                            + "a component has one module")
                }
                modules += declared
            case .plugin:
                guard let definition = catalog.definitions[component.name]?.first else {
                    throw AppWiring.refusal("plugin '\(component.name)' defines no type conforming to PluginDefinition")
                }
                definitions.append(definition)
            case .interface:
                continue
            }
        }
        let memberNames = Set(members.map(\.name))
        let declarations = workspace.plugins.filter { memberNames.contains($0.plugin) }
        // Runtime plugins of the app's features are loaded at run time: their points are wired too.
        let runtime = workspace.components.filter { $0.isRuntime && workspace.host(of: $0).map { memberNames.contains($0.name) } == true }
        let pointIDs = Set(members.compactMap(\.extends) + runtime.compactMap(\.extends) + declarations.map(\.point))
        var points: [PluginCatalog.Point] = []
        for id in pointIDs.sorted() {
            guard let point = catalog.point(id) else { throw AppWiring.refusal("no interface declares the extension point '\(id)'") }
            points.append(point)
        }
        func patterns(of name: String) -> [String] {
            stagedRoutes[name]
                ?? (analysis.packages[name]?.targets ?? []).filter { $0.declaration.kind == .regular }.flatMap { $0.files.flatMap { $0.routes.map(\.pattern) } }
        }
        var absent: [Absent] = []
        for component in workspace.components where component.kind == .implementation && !linked.contains(component.name) {
            guard let interface = component.interface else { continue }
            absent.append(Absent(component: component.name, patterns: patterns(of: interface), behaviour: app.behaviour(for: component.name)))
        }
        var routes: [String: [String]] = [:]
        for component in members where component.kind != .interface {
            let own = Set(patterns(of: component.name) + (component.interface.map(patterns(of:)) ?? []))
            if !own.isEmpty { routes[component.name] = own.sorted() }
        }
        return AppPlan(
            app: app, linked: linked, modules: modules, definitions: definitions.sorted { $0.component < $1.component }, points: points,
            declarations: declarations, absent: absent, routes: routes, shellAPI: shellAPI)
    }
}
