public import Foundation

/// Whether a component holds behaviour or only declarations.
public enum ComponentKind: String, Sendable, Codable, CaseIterable {
    /// A component with behaviour.
    case implementation
    /// A "public header" package: protocols, typed routes, value types.
    case interface
    /// A contribution to an extension point of a feature (`extends:`), created by the feature's container.
    case plugin
}

/// One component of components.yaml.
public struct Component: Sendable, Hashable {
    /// The name: its folder's name in lower kebab case.
    public var name: String
    /// The folder, relative to the workspace root.
    public var path: String
    /// Its layer.
    public var layer: String
    /// Implementation or interface.
    public var kind: ComponentKind
    /// The interface component that describes it, if any.
    public var interface: String?
    /// For a plugin: the extension point it extends, `<interface component>/<point>`.
    public var extends: String?
    /// For a plugin: shipped apart from the App as a shared library (`runtime: true`), never linked into it.
    public var isRuntime = false
    /// The last released version.
    public var version: String?
    /// The release the integrated build uses instead of the live folder.
    public var pin: String?
    /// Where the component's entry starts in components.yaml.
    public var location: SourceLocation

    /// The folder's last path component: SwiftPM's identity for the package, case-insensitively.
    public var folderName: String { (path as NSString).lastPathComponent }
}

/// How components of one layer may depend on each other.
public enum SameLayerPolicy: String, Sendable, Codable {
    /// Only on interface components of the layer (business: features reach each other through interfaces).
    case interfaces
    /// Only pairs listed under `rules.allow` (core).
    case allowList = "allow-list"
    /// Never (foundation).
    case never
    /// On any component of the layer (cycles are still refused): for code that grew without layers, until it is split.
    case any
}

/// How check-layers judges findings: components.yaml's `checks:`.
public struct CheckSettings: Sendable {
    /// What a rule's findings are.
    public enum Level: String, Sendable {
        /// Findings fail the check.
        case error
        /// Findings are shown and pass.
        case warning
        /// Findings are not reported.
        case off
    }

    /// The level of each rule named (`checks.severity`); the others keep their own.
    public var severity: [String: Level] = [:]
    /// The baseline check-layers applies without `--baseline` (`checks.baseline`), relative to the root.
    public var baseline: String?
    /// Modules the team's platform provides besides the toolchain's and the SDKs' (`checks.system-modules`).
    public var systemModules: Set<String> = []
    /// Where components.yaml lists each of ``systemModules``.
    public var systemModuleLocations: [String: SourceLocation] = [:]

    /// `findings` at the levels components.yaml gives their rules, without those turned off.
    public func judged(_ findings: [Diagnostic]) -> [Diagnostic] {
        findings.compactMap { finding in
            switch severity[finding.rule] {
            case nil: return finding
            case .off: return nil
            case .error?, .warning?:
                var judged = finding
                judged.severity = severity[finding.rule] == .error ? .error : .warning
                return judged
            }
        }
    }
}

/// An explicit same-layer exception from `rules.allow`, such as `core/session -> core/storage`.
public struct AllowedEdge: Sendable, Hashable {
    /// The depending component.
    public var from: String
    /// The component depended on.
    public var to: String

    /// Creates an allowed pair.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// The layering rules: data from components.yaml, not code.
public struct LayerRules: Sendable {
    /// The layers, top to bottom.
    public var layers: [String]
    /// Explicit same-layer exceptions.
    public var allow: Set<AllowedEdge>
    /// The same-layer policy of each layer.
    public var sameLayer: [String: SameLayerPolicy]

    /// The default policy: the top layer reaches its own layer through interfaces, the bottom layer
    /// never, the layers between only through allowed pairs.
    public static func defaultSameLayer(for layers: [String]) -> [String: SameLayerPolicy] {
        var policies: [String: SameLayerPolicy] = [:]
        for (index, layer) in layers.enumerated() {
            policies[layer] = index == 0 ? .interfaces : index == layers.count - 1 ? .never : .allowList
        }
        return policies
    }

    /// 0 for the top layer; larger is lower.
    public func rank(of layer: String) -> Int { layers.firstIndex(of: layer) ?? layers.count }
}

/// A loaded, validated workspace.
public struct Workspace: Sendable {
    /// The folder holding components.yaml.
    public var root: URL
    /// The workspace's name.
    public var name: String
    /// The router's business scheme.
    public var scheme: String
    /// The URL every app opens first and its `home` command opens (`workspace.start`); nil: a list of the app's routes.
    public var start: String?
    /// What the apps' environment variables start with (`workspace.settings-prefix`; default: the name's
    /// letters and digits in capitals): `NOTES` gives `NOTES_DATA_DIR`.
    public var settingsPrefix = "APP"
    /// The name of the apps' data folder under `~/.local/share` (`workspace.data-folder`; default: the scheme).
    public var dataFolder = "app"
    /// The container image the generated CI workflow runs its jobs in (`workspace.ci-image`).
    public var ciImage = GitHubWorkflow.defaultImage
    /// Files and folders every component's build reads besides its packages (`workspace.inputs`: a shared
    /// `.xcconfig`, a toolchain file, scripts a build runs), relative to the root.
    public var inputs: [String] = []
    /// The sample's own files and folders (`workspace.sample`), relative to the root: what `componentctl create`
    /// leaves out of a new workspace besides the top layer's components and the apps' folders.
    public var sample: [String] = []
    /// The `Package.resolved` that governs the external packages' versions (`workspace.lock`; default: the root's).
    public var lock = "Package.resolved"
    /// Folders a build makes, with the inputs that make them (`generated:`), relative to the root.
    public var generated: [String: [String]] = [:]
    /// The layering rules.
    public var rules: LayerRules
    /// Every component, in file order.
    public var components: [Component] { didSet { indexes = Self.indexes(of: components) } }
    /// The plugin declaration (`plugins:`): which plugins each extension point gets, in order.
    public var plugins: [PluginEntry]
    /// The apps (`apps:`): executables made of chosen components, in file order.
    public var apps: [AppDeclaration]
    /// The raw bytes of components.yaml, for in-place edits.
    public var fileBytes: [UInt8]
    /// The parsed document, with every scalar's position.
    public var document: YAMLNode
    /// The apps Xcode projects assemble (`xcode-apps:`).
    public var xcodeApps: [XcodeApp] = []
    /// How check-layers judges findings (`checks:`).
    public var checks = CheckSettings()
    /// How the components' manifests are read: statically, or by SwiftPM where the static reader is unsure.
    public var manifests = ManifestLoader(environment: ProcessInfo.processInfo.environment)
    // Look-ups by name and by interface run once per edge and per import: a scan each would make checks quadratic.
    private var indexes: (byName: [String: Int], byInterface: [String: Int])

    /// A workspace of `components`, as components.yaml at `root` declares it.
    public init(
        root: URL, name: String, scheme: String, rules: LayerRules, components: [Component], plugins: [PluginEntry] = [], apps: [AppDeclaration] = [],
        fileBytes: [UInt8], document: YAMLNode
    ) {
        self.root = root
        self.plugins = plugins
        self.apps = apps
        self.name = name
        self.scheme = scheme
        self.rules = rules
        self.components = components
        self.fileBytes = fileBytes
        self.document = document
        indexes = Self.indexes(of: components)
    }

    /// The settings prefix a workspace called `name` gets: its ASCII letters and digits in capitals, runs
    /// of anything else one underscore (`My App` gives `MY_APP`), `APP` when nothing is left.
    public static func settingsPrefix(forName name: String) -> String {
        var prefix = ""
        for character in name.uppercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                prefix.append(character)
            } else if !prefix.isEmpty, !prefix.hasSuffix("_") {
                prefix.append("_")
            }
        }
        // A variable starts with a letter.
        let trimmed = prefix.drop { $0.isNumber || $0 == "_" }.reversed().drop { $0 == "_" }.reversed()
        return trimmed.isEmpty ? "APP" : String(trimmed)
    }

    /// The data folder a workspace of `scheme` gets: the scheme in lower case, `app` when it is no folder name.
    public static func dataFolder(forScheme scheme: String) -> String {
        let folder = scheme.lowercased()
        return NameCharacters.isFolderName(folder) ? folder : "app"
    }

    private static func indexes(of components: [Component]) -> (byName: [String: Int], byInterface: [String: Int]) {
        var byName: [String: Int] = [:], byInterface: [String: Int] = [:]
        for (index, component) in components.enumerated() {
            if byName[component.name] == nil { byName[component.name] = index }
            if let interface = component.interface, byInterface[interface] == nil { byInterface[interface] = index }
        }
        return (byName, byInterface)
    }

    /// The component called `name`, if any.
    public func component(named name: String) -> Component? {
        indexes.byName[name].map { components[$0] }
    }

    /// The implementation whose `interface:` names `interface`, if any.
    public func implementation(of interface: String) -> Component? {
        indexes.byInterface[interface].map { components[$0] }
    }

    /// The feature implementation a plugin's extension point belongs to (the implementation of the
    /// point's interface), if any.
    public func host(of plugin: Component) -> Component? {
        guard let point = plugin.extends, let interface = point.split(separator: "/").first else { return nil }
        return implementation(of: String(interface))
    }

    /// The apps named by `--app` options, each once; throws for a repeated or unknown one.
    public func apps(namedByOptions names: [String]) throws -> [AppDeclaration] {
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ToolError("--app \(repeated) is given twice; name each app once.", status: .usage)
        }
        return try names.map { try app(named: $0) }
    }

    /// The app called `name`, or an error suggesting the closest one.
    public func app(named name: String) throws -> AppDeclaration {
        if let app = apps.first(where: { $0.name == name }) { return app }
        if xcodeApps.contains(where: { $0.name == name }) {
            throw ToolError("'\(name)' is an app an Xcode project assembles (xcode-apps:): componentctl does not build, run or key it.", status: .usage)
        }
        throw unknownApp(name)
    }

    /// The names of the apps of `apps:`, then of `xcode-apps:`: what `list`, `graph` and `status` take for `--app`.
    public var allAppNames: [String] { apps.map(\.name) + xcodeApps.map(\.name) }

    /// Checks that `name` is an app of `apps:` or `xcode-apps:`.
    public func checkAppExists(_ name: String) throws {
        guard !allAppNames.contains(name) else { return }
        throw unknownApp(name)
    }

    private func unknownApp(_ name: String) -> ToolError {
        let names = allAppNames
        let hint = Suggestion.closest(to: name, in: names).map { " Did you mean '\($0)'?" } ?? ""
        let known = names.isEmpty ? " components.yaml declares no apps: add an 'apps:' or 'xcode-apps:' section." : " See 'componentctl list --apps'."
        return ToolError("Unknown app '\(name)'.\(hint)\(known)", status: .usage)
    }

    /// The absolute folder of `component`.
    public func folder(of component: Component) -> URL {
        root.appendingPathComponent(component.path)
    }

    /// An error for an unknown component name, suggesting the closest one.
    public func unknownComponent(_ name: String) -> WorkspaceError {
        let suggestion = Suggestion.closest(to: name, in: components.map(\.name))
        return .unknownComponent(name, suggestion: suggestion)
    }
}

/// Errors about the workspace as a whole.
public enum WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No components.yaml here or above.
    case notFound(start: String)
    /// No components.yaml in the folder `--root` names; `above` is the nearest workspace above it, if any.
    case rootWithoutWorkspace(root: String, above: String?)
    /// A component name that does not exist.
    case unknownComponent(String, suggestion: String?)
    /// components.yaml is invalid; every problem is listed.
    case invalid([Diagnostic])
    /// A file cannot be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let start):
            "No components.yaml in '\(start)' or any folder above it. Run componentctl inside a workspace or pass --root DIR; to start one in this repository, run 'componentctl init'."
        case .rootWithoutWorkspace(let root, let above):
            "--root '\(root)' holds no components.yaml. "
                + (above.map { "The workspace above it is at '\($0)': pass --root '\($0)'." }
                    ?? "Name the folder that holds it, or run 'componentctl init' there.")
        case .unknownComponent(let name, let suggestion):
            "Unknown component '\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? "") + " See 'componentctl list'."
        case .invalid(let diagnostics):
            diagnostics.map(\.text).joined(separator: "\n")
        case .unreadable(let path, let reason):
            "Cannot read '\(path)': \(reason)."
        }
    }
}
