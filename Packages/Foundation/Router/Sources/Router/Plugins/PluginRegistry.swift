import Foundation

/// The plugins the App links and the declaration of which extension point gets which of them: checked
/// once at launch, then asked by hosts for containers.
public final class PluginRegistry: Sendable {
    struct Entry: Sendable {
        var id: String
        var point: ExtensionPointID
        var schema: PluginSchema
        var make: @Sendable (PluginContext) throws -> any Sendable
        var register: @Sendable (ModuleContext) throws -> Void
        /// The bounds of a runtime plugin: what its contexts get is narrowed to them, and calls into it are marked.
        var scope: PluginScope?
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var points: Set<ExtensionPointID> = []
        var declarations: [ExtensionPointID: [PluginDeclaration]] = [:]
        /// Each point's enabled entries with their plugins, made once at install so a container's set-up
        /// only reads them.
        var enabled: [ExtensionPointID: [(declaration: PluginDeclaration, entry: Entry)]] = [:]
        var report: @Sendable (PluginFailure) -> Void = { failure in
            FileHandle.standardError.write(Data("warning: \(failure)\n".utf8))
        }
    }

    private let state: Locked<State>
    /// The bounds of the runtime plugin this registry was narrowed for; nil: the registry itself.
    private let scope: PluginScope?

    /// Creates a registry with no plugins.
    public init() {
        state = Locked(State())
        scope = nil
    }

    private init(narrowing base: PluginRegistry, to scope: PluginScope) {
        state = base.state
        self.scope = scope
    }

    /// This registry as a runtime plugin gets it: it may read it and make containers, never change it.
    public func narrowed(to scope: PluginScope) -> PluginRegistry {
        PluginRegistry(narrowing: self, to: scope)
    }

    /// Takes the extension points and plugins the App links and the declaration, after checking that each
    /// entry names a known point and plugin, of that point, once, with settings of the plugin's schema.
    /// Throws every problem at once and installs nothing then.
    public func install(points: [any ExtensionPoint.Type], definitions: [any PluginDefinition.Type], declarations: [PluginDeclaration]) throws {
        if let scope { throw scope.breach("install the App's plugins") }
        let known = Set(points.map { $0.id })
        var problems: [PluginConfigurationError.Problem] = []
        var entries: [String: Entry] = [:]
        for definition in definitions {
            let entry = Self.entry(definition)
            if entries[entry.id] != nil {
                problems.append(.init(source: entry.id, message: "plugin '\(entry.id)' is linked twice", fix: "list each plugin once in the App's wiring"))
            }
            if !known.contains(entry.point) {
                problems.append(
                    .init(
                        source: entry.id, message: "plugin '\(entry.id)' extends '\(entry.point)', which no extension point of the App declares",
                        fix: "extend one of \(known.map(\.rawValue).sorted().joined(separator: ", ")), or link the interface that declares it"))
            }
            entries[entry.id] = entry
        }
        var seen = Set<[String]>()
        var byPoint: [ExtensionPointID: [PluginDeclaration]] = [:]
        for declaration in declarations {
            let before = problems.count
            problems += Self.check(declaration, known: known, entries: entries)
            if !seen.insert([declaration.point.rawValue, declaration.plugin]).inserted {
                problems.append(
                    .init(
                        source: declaration.source, message: "plugin '\(declaration.plugin)' is listed twice under '\(declaration.point)'",
                        fix: "keep one entry (its position is the plugin's place)"))
            }
            if problems.count == before { byPoint[declaration.point, default: []].append(declaration) }
        }
        guard problems.isEmpty else { throw PluginConfigurationError(problems: problems) }
        let enabled = byPoint.mapValues { declarations in
            declarations.filter { $0.isEnabled }.compactMap { declaration in entries[declaration.plugin].map { (declaration, $0) } }
        }
        state.withLock {
            $0.entries = entries
            $0.points = known
            $0.declarations = byPoint
            $0.enabled = enabled
        }
    }

    /// Adds plugins loaded after launch (a runtime plugin's), all or none: enabled, last at their point,
    /// with their settings' defaults; containers made from now on include them, their contexts narrowed
    /// to `scope`. Throws when a point is unknown or an id taken.
    public func add(_ definitions: [any PluginDefinition.Type], source: String, scope: PluginScope? = nil) throws {
        if let current = self.scope { throw current.breach("add plugins to the App's registry") }
        try state.withLock { state in
            var added = state
            for definition in definitions {
                var entry = Self.entry(definition)
                entry.scope = scope
                let declaration = PluginDeclaration(point: entry.point, plugin: entry.id, source: source)
                var problems = Self.check(declaration, known: added.points, entries: [entry.id: entry])
                if added.entries[entry.id] != nil {
                    problems.append(.init(source: source, message: "plugin '\(entry.id)' is already installed", fix: "give the plugin another id"))
                }
                guard problems.isEmpty else { throw PluginConfigurationError(problems: problems) }
                added.entries[entry.id] = entry
                added.declarations[entry.point, default: []].append(declaration)
                added.enabled[entry.point, default: []].append((declaration, entry))
            }
            state = added
        }
    }

    /// Takes out the plugins added with `scope` (a runtime plugin turned off): containers made from now
    /// on leave them out.
    public func withdraw(_ scope: PluginScope) {
        if let current = self.scope {
            current.breach("withdraw plugins from the App's registry")
            return
        }
        state.withLock { state in
            let ids = Set(state.entries.values.filter { $0.scope === scope }.map(\.id))
            state.entries = state.entries.filter { !ids.contains($0.key) }
            state.declarations = state.declarations.mapValues { $0.filter { !ids.contains($0.plugin) } }
            state.enabled = state.enabled.mapValues { $0.filter { !ids.contains($0.entry.id) } }
        }
    }

    private static func check(_ declaration: PluginDeclaration, known: Set<ExtensionPointID>, entries: [String: Entry]) -> [PluginConfigurationError.Problem] {
        let source = declaration.source
        guard known.contains(declaration.point) else {
            let hint =
                closest(declaration.point.rawValue, in: known.map(\.rawValue)).map { "did you mean '\($0)'?" }
                ?? "the App declares \(known.map(\.rawValue).sorted().joined(separator: ", "))"
            return [.init(source: source, message: "unknown extension point '\(declaration.point)'", fix: hint)]
        }
        guard let entry = entries[declaration.plugin] else {
            let hint = closest(declaration.plugin, in: Array(entries.keys)).map { "did you mean '\($0)'?" } ?? "add the plugin component, or remove the entry"
            return [.init(source: source, message: "unknown plugin '\(declaration.plugin)': the App links no plugin of that id", fix: hint)]
        }
        guard entry.point == declaration.point else {
            return [
                .init(
                    source: source, message: "plugin '\(entry.id)' extends '\(entry.point)', not '\(declaration.point)'",
                    fix: "list it under '\(entry.point)'")
            ]
        }
        var problems: [PluginConfigurationError.Problem] = []
        for (key, value) in declaration.settings.sorted(by: { $0.key < $1.key }) {
            guard let type = entry.schema[key] else {
                let accepted = entry.schema.keys.sorted().joined(separator: ", ")
                problems.append(
                    .init(
                        source: source, message: "plugin '\(entry.id)' has no setting '\(key)'",
                        fix: accepted.isEmpty ? "it takes no settings: remove them" : "its settings are \(accepted)"))
                continue
            }
            if !value.matches(type) {
                problems.append(
                    .init(
                        source: source, message: "setting '\(key)' of plugin '\(entry.id)' must be \(type.rawValue), not \(value.type.rawValue) \(value)",
                        fix: "write a value of type \(type.rawValue)"))
            }
        }
        return problems
    }

    private static func entry<Definition: PluginDefinition>(_ definition: Definition.Type) -> Entry {
        Entry(
            id: Definition.id, point: Definition.Point.id, schema: Definition.settings,
            make: { context in try Definition.make(context) }, register: { context in try Definition.register(in: context) })
    }

    private static func closest(_ name: String, in candidates: [String]) -> String? {
        candidates.filter { $0.hasPrefix(name.prefix(3)) || name.hasPrefix($0.prefix(3)) }.min()
    }

    /// Sends plugin failures to `report` instead of standard error.
    public func setFailureReporter(_ report: @escaping @Sendable (PluginFailure) -> Void) {
        if let scope {
            scope.breach("set the plugin failure reporter")
            return
        }
        state.withLock { $0.report = report }
    }

    func report(_ failure: PluginFailure) {
        state.withLock { $0.report }(failure)
    }

    /// The enabled declarations of `point`, in declared order.
    public func declarations(of point: ExtensionPointID) -> [PluginDeclaration] {
        enabled(point).map(\.declaration)
    }

    /// The enabled entries of `point` with their plugins, in declared order.
    func enabled(_ point: ExtensionPointID) -> [(declaration: PluginDeclaration, entry: Entry)] {
        state.withLock { $0.enabled[point] ?? [] }
    }

    /// One module per plugin that some point enables: it registers the plugin's app-wide part, named by
    /// the plugin's id (the owner of its routes).
    public func modules() -> [any AppModule] {
        let (entries, declarations) = state.withLock { ($0.entries, $0.declarations) }
        let enabled = Set(declarations.values.joined().filter(\.isEnabled).map(\.plugin))
        return entries.values.filter { enabled.contains($0.id) }.sorted { $0.id < $1.id }.map { PluginModule(entry: $0) }
    }

    /// A new container of `point`'s enabled plugins, made in declared order.
    public func container<Point: ExtensionPoint>(_ point: Point.Type, router: Router) -> PluginContainer<Point> {
        PluginContainer(registry: self, router: router)
    }
}

/// A plugin's app-wide part, booted like a component's module.
struct PluginModule: AppModule {
    let entry: PluginRegistry.Entry
    var name: String { entry.id }

    func register(in context: ModuleContext) throws {
        try entry.register(context)
    }
}
