/// One app of components.yaml's `apps:`: an executable made of a chosen set of components.
public struct AppDeclaration: Sendable, Hashable {
    /// What happens when the app opens a route of a component it leaves out.
    public enum Missing: Sendable, Hashable {
        /// A screen saying the feature is not in this app.
        case notInApp
        /// The web container shows the page at this base URL followed by the route's path.
        case web(String)
    }

    /// A component listed as the app's content, with where it is written.
    public struct Member: Sendable, Hashable {
        /// The component's name.
        public var name: String
        /// Where the list names it.
        public var location: SourceLocation
    }

    /// A left-out component and what its routes do instead.
    public struct Absence: Sendable, Hashable {
        /// The component left out.
        public var component: String
        /// What happens instead.
        public var behaviour: Missing
        /// Where `missing:` names it.
        public var location: SourceLocation
    }

    /// The app's name, in lower kebab case.
    public var name: String
    /// The executable product (and target) that builds it.
    public var product: String
    /// The business implementations and plugins it contains, as listed.
    public var members: [Member]
    /// The declared behaviour of components it leaves out.
    public var missing: [Absence] = []
    /// A degrade table file (relative to the workspace root) the App embeds, if any.
    public var degradeTable: String?
    /// Settings the modules read (the environment overrides them), in file order.
    public var settings: [(key: String, value: String)] = []
    /// Settings whose value is a file's text, embedded in the app (`setting-files:`), by setting: paths relative to the root.
    public var settingFiles: [(key: String, path: String)] = []
    /// Where the app's entry starts.
    public var location: SourceLocation
    /// Files and folders that belong to the app, relative to the workspace root (`paths:`: its package, shell,
    /// tests, an Xcode project): a change to one affects the app.
    public var paths: [String] = []
    /// The URL the app starts at instead of the workspace's `start` (a focused app's component).
    public var start: String?

    /// The names of the listed components.
    public var componentNames: [String] { members.map(\.name) }

    /// The declared behaviour for `component`, if the app declares one.
    public func behaviour(for component: String) -> Missing? {
        missing.first { $0.component == component }?.behaviour
    }

    /// `paths` with the app's generated folder, which belongs to it without being listed (it may not exist before
    /// `sync`); none when `paths` is empty (then everything outside the component folders is the app's).
    public var ownPaths: [String] {
        guard !paths.isEmpty, !paths.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) else { return paths }
        return paths + [folder]
    }

    /// The folder of its generated sources, relative to the workspace root: beside the shell, in `App/`.
    public var folder: String { "\(AppWiring.appsFolder)/\(name)" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.product == rhs.product && lhs.members == rhs.members && lhs.missing == rhs.missing
            && lhs.settingFiles.elementsEqual(rhs.settingFiles, by: ==) && lhs.degradeTable == rhs.degradeTable
            && lhs.settings.elementsEqual(rhs.settings, by: ==)
            && lhs.location == rhs.location && lhs.start == rhs.start
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
