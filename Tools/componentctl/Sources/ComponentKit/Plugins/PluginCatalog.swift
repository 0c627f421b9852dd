/// The wiring facts of a workspace read from its sources: the extension points its interfaces declare,
/// the plugin definition of each plugin component and the module of each implementation.
public struct PluginCatalog: Sendable {
    /// A declared extension point.
    public struct Point: Sendable, Hashable {
        /// `<interface component>/<point>`.
        public var id: String
        /// The interface component whose source declares it.
        public var component: String
        /// The Swift type declaring it.
        public var typeName: String
        /// The module of that type.
        public var module: String
        /// Where the id is written.
        public var file: String
        public var line: Int
        public var column: Int
    }

    /// A plugin component's definition.
    public struct Definition: Sendable, Hashable {
        /// The plugin component.
        public var component: String
        /// The Swift type conforming to `PluginDefinition`.
        public var typeName: String
        /// The module of that type.
        public var module: String
        /// The id the definition gives, when written as a literal.
        public var id: String?
        /// The settings schema (`name: int|number|string|bool`); nil when the source's is no literal.
        public var settings: [String: String]?
        /// Where the type is declared.
        public var file: String
        public var line: Int
        public var column: Int
    }

    /// An implementation component's module: a type conforming to `AppModule`.
    public struct Module: Sendable, Hashable {
        /// The component.
        public var component: String
        /// The Swift type.
        public var typeName: String
        /// The module (target) of that type.
        public var module: String
        /// Where the type is declared.
        public var file: String
        public var line: Int
        public var column: Int
    }

    /// The points, in component order then file order.
    public var points: [Point] = []
    /// Points whose id is no string literal, so componentctl cannot know it.
    public var unreadable: [Point] = []
    /// Each plugin component's definitions (one is right; none or several is a finding).
    public var definitions: [String: [Definition]] = [:]
    /// Each implementation component's modules (none: a library the App does not boot; several: a finding).
    public var modules: [String: [Module]] = [:]

    /// The facts of `analysis`.
    public init(_ analysis: WorkspaceAnalysis) {
        for component in analysis.workspace.components {
            for target in analysis.packages[component.name]?.targets ?? [] where target.declaration.kind == .regular {
                for file in target.files {
                    for module in file.appModules {
                        modules[component.name, default: []].append(
                            Module(
                                component: component.name, typeName: module.typeName, module: target.declaration.name, file: file.path,
                                line: module.line, column: module.column))
                    }
                    for point in file.extensionPoints {
                        guard let id = point.id else {
                            unreadable.append(
                                Point(
                                    id: "", component: component.name, typeName: point.typeName, module: target.declaration.name, file: file.path,
                                    line: point.line, column: point.column))
                            continue
                        }
                        points.append(
                            Point(
                                id: id, component: component.name, typeName: point.typeName, module: target.declaration.name,
                                file: file.path, line: point.line, column: point.column))
                    }
                    for definition in file.pluginDefinitions {
                        definitions[component.name, default: []].append(
                            Definition(
                                component: component.name, typeName: definition.typeName, module: target.declaration.name, id: definition.id,
                                settings: definition.settings, file: file.path, line: definition.line, column: definition.column))
                    }
                }
            }
        }
    }

    /// The point `id`, if an interface declares it.
    public func point(_ id: String) -> Point? { points.first { $0.id == id } }
}
