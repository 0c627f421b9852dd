/// Decides whether one component may depend on another under the workspace's rules ("The layer rules" in the workspace README).
public struct LayerRulesEvaluator: Sendable {
    /// A broken rule: its id, what is wrong and how to fix it.
    public struct Violation: Sendable, Hashable {
        /// The rule's id.
        public var rule: String
        /// What is wrong.
        public var message: String
        /// How to fix it.
        public var fix: String
    }

    /// The workspace's rules.
    public let rules: LayerRules
    private let components: [String: Component]

    /// An evaluator for `workspace`.
    public init(workspace: Workspace) {
        rules = workspace.rules
        components = Dictionary(workspace.components.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The rule `from -> to` breaks, or nil when the dependency is allowed.
    public func violation(from: Component, to: Component) -> Violation? {
        if let violation = pluginViolation(from: from, to: to) { return violation }
        let fromRank = rules.rank(of: from.layer)
        let toRank = rules.rank(of: to.layer)
        let bottom = rules.layers.last
        if from.kind == .interface, to.kind != .interface, to.layer != bottom {
            return Violation(
                rule: "interface-purity",
                message: "interface '\(from.name)' depends on '\(to.name)', an implementation in layer \(to.layer)",
                fix: "interfaces depend only on \(bottom ?? "the bottom layer") components and other interfaces; "
                    + (to.interface.map { "depend on '\($0)' instead" }
                        ?? "move what '\(from.name)' needs into an interface or a \(bottom ?? "lower") component"))
        }
        if toRank < fromRank {
            return Violation(
                rule: "layer-order",
                message: "'\(from.name)' (\(from.layer)) depends on '\(to.name)' (\(to.layer)), a higher layer",
                fix: "depend only downwards (\(rules.layers.joined(separator: " -> "))): put what '\(from.name)' uses of '\(to.name)' in an "
                    + "interface package of a lower layer and depend on that, or reach '\(to.name)' through a URL route or an event")
        }
        guard toRank == fromRank, !rules.allow.contains(AllowedEdge(from: from.name, to: to.name)) else { return nil }
        switch rules.sameLayer[from.layer] ?? .allowList {
        case .any:
            return nil
        case .interfaces:
            guard to.kind != .interface else { return nil }
            return Violation(
                rule: "implementation-to-implementation",
                message: "\(from.layer) implementation '\(from.name)' depends on \(to.layer) implementation '\(to.name)'",
                fix: to.interface.map { interface in
                    "depend on '\(interface)' (\(components[interface]?.folderName ?? interface)) instead of '\(to.name)' and open its routes"
                } ?? "give '\(to.name)' an interface package and depend on that")
        case .allowList:
            return Violation(
                rule: "unlisted-same-layer",
                message: "\(from.layer) component '\(from.name)' depends on \(to.layer) component '\(to.name)', a pair components.yaml does not allow",
                fix:
                    "if intended, add '- \(from.layer)/\(from.name) -> \(to.layer)/\(to.name)' under rules.allow in components.yaml; otherwise move the shared part down a layer"
            )
        case .never:
            return Violation(
                rule: "same-layer-forbidden",
                message: "\(from.layer) component '\(from.name)' depends on '\(to.name)' of the same layer",
                fix: "\(from.layer) components stand alone: move what both need into one of them or duplicate it")
        }
    }

    /// The plugin rules: a plugin reaches what it extends only through interfaces, core and foundation,
    /// and nothing but the App depends on a plugin (its container creates it from the declaration).
    private func pluginViolation(from: Component, to: Component) -> Violation? {
        if to.kind == .plugin {
            let point = to.extends ?? "its extension point"
            if from.kind == .plugin {
                return Violation(
                    rule: "plugin-depends-on-plugin", message: "plugin '\(from.name)' depends on plugin '\(to.name)'",
                    fix: "plugins do not know each other: publish an event declared in an interface on the container's bus instead")
            }
            if let host = to.extends.flatMap({ $0.split(separator: "/").first }).flatMap({ interface in
                components.values.first { $0.interface == String(interface) }
            }),
                host.name == from.name
            {
                return Violation(
                    rule: "host-depends-on-plugin", message: "'\(from.name)' depends on '\(to.name)', a plugin of its own extension point \(point)",
                    fix: "a feature knows its plugins only through \(point): remove the dependency; the App's generated wiring creates the plugin")
            }
            return Violation(
                rule: "depends-on-plugin", message: "'\(from.name)' depends on plugin '\(to.name)'",
                fix: "only the App links plugins; reach what '\(to.name)' does through \(point)'s events or the router")
        }
        guard from.kind == .plugin, to.kind == .implementation, to.layer == rules.layers.first else { return nil }
        if let point = from.extends, let interface = point.split(separator: "/").first, to.interface == String(interface) {
            return Violation(
                rule: "plugin-depends-on-host", message: "plugin '\(from.name)' depends on '\(to.name)', the feature it extends (\(point))",
                fix: "depend on '\(interface)' instead: the point's protocol, context and events are all a plugin may know of its host")
        }
        return Violation(
            rule: "plugin-depends-on-implementation", message: "plugin '\(from.name)' depends on \(to.layer) implementation '\(to.name)'",
            fix: to.interface.map { "depend on '\($0)' instead and use its services or routes" } ?? "give '\(to.name)' an interface package and depend on that")
    }
}
