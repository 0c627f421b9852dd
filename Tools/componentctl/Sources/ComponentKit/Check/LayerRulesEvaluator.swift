/// Decides whether one component may depend on another under the workspace's rules ("The layer rules" in the README).
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
                fix: "depend only downwards (\(rules.layers.joined(separator: " -> "))); reach '\(to.name)' through the router or an event instead")
        }
        guard toRank == fromRank, !rules.allow.contains(AllowedEdge(from: from.name, to: to.name)) else { return nil }
        switch rules.sameLayer[from.layer] ?? .allowList {
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
}
