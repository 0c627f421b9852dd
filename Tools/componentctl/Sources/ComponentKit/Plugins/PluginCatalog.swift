/// The plugin facts of a workspace read from its sources: the extension points its interfaces declare
/// and the plugin definition of each plugin component.
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

    /// The points, in component order then file order.
    public var points: [Point] = []
    /// Points whose id is no string literal, so componentctl cannot know it.
    public var unreadable: [Point] = []
    /// Each plugin component's definitions (one is right; none or several is a finding).
    public var definitions: [String: [Definition]] = [:]

    /// The facts of `analysis`.
    public init(_ analysis: WorkspaceAnalysis) {
        for component in analysis.workspace.components where component.kind != .implementation {
            for target in analysis.packages[component.name]?.targets ?? [] where target.declaration.kind == .regular {
                for file in target.files {
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

extension WorkspaceAnalysis {
    /// The analysis of the components that hold plugin facts (interfaces and plugins) only: what
    /// generating the wiring and scaffolding a plugin need, without reading every other component.
    public static func analyze(pluginFactsOf workspace: Workspace) -> WorkspaceAnalysis {
        var facts = workspace
        facts.components = workspace.components.filter { $0.kind != .implementation }
        return analyze(facts)
    }
}
