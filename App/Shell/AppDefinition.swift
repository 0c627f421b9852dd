public import Router

/// One app of the workspace: what `componentctl sync` generates from components.yaml's `apps:` (each
/// app's `GeneratedApp.swift`), and all the shell needs to know of it.
public struct AppDefinition: Sendable {
    /// The app's name in components.yaml.
    public var name: String
    /// Its executable's name (`product:` in components.yaml), as its messages tell a user to type it.
    public var product: String
    /// Creates the modules of the app's components, anew for each boot.
    public var modules: @Sendable () -> [any AppModule]
    /// The extension points and plugins it links and its plugin declaration.
    public var plugins: AppPlugins
    /// The version of every component it links: said when a runtime plugin was built against another.
    public var hostAPI: [String: String]
    /// The content key of every component it links, as `componentctl sync` computed it from the sources: what a
    /// runtime plugin must have been built against.
    public var hostKeys: [String: String]
    /// The features it leaves out, and what their routes do instead.
    public var absent: [AbsentFeature]
    /// Settings its modules read; the environment overrides each.
    public var settings: [String: String]
    /// Its own degrade table (JSON), if it declares one; the DEGRADE_TABLE setting still replaces it.
    public var degradeTable: String?
    /// The first screen and the `home` command's (components.yaml's `workspace.start`; a focused app starts at its
    /// component); nil: the shell's list of the app's routes.
    public var start: String?
    /// The scheme of the app's own links (components.yaml's `workspace.scheme`): the only one routes may use.
    public var scheme: String?
    /// What the variables of its settings start with (`workspace.settings-prefix`): `NOTES` reads `NOTES_LOG`.
    public var settingsPrefix: String
    /// Its data folder's name under the user's data home (`workspace.data-folder`).
    public var dataFolder: String
    /// The route patterns of each module (its interface's and its own literal ones): what answers
    /// "temporarily unavailable" when the module is disabled.
    public var routes: [String: [String]]

    /// Creates a definition; the generated `GeneratedApp.definition` of each app calls it.
    public init(
        name: String, product: String, modules: @escaping @Sendable () -> [any AppModule], plugins: AppPlugins, hostAPI: [String: String],
        hostKeys: [String: String] = [:],
        absent: [AbsentFeature],
        settings: [String: String], degradeTable: String?, start: String? = nil, scheme: String? = nil,
        settingsPrefix: String, dataFolder: String, routes: [String: [String]] = [:]
    ) {
        self.name = name
        self.product = product
        self.modules = modules
        self.plugins = plugins
        self.hostAPI = hostAPI
        self.hostKeys = hostKeys
        self.absent = absent
        self.settings = settings
        self.degradeTable = degradeTable
        self.start = start
        self.scheme = scheme
        self.settingsPrefix = settingsPrefix
        self.dataFolder = dataFolder
        self.routes = routes
    }
}

/// A feature an app leaves out: its routes answer "not in this app", or open a web page instead.
public struct AbsentFeature: Sendable, Equatable {
    /// The left-out component.
    public var component: String
    /// The route patterns of its interface.
    public var patterns: [String]
    /// The web address its routes open instead (the route's path is added to it), or nil for "not in this app".
    public var web: String?

    /// Creates an absent feature.
    public init(component: String, patterns: [String], web: String?) {
        self.component = component
        self.patterns = patterns
        self.web = web
    }
}
