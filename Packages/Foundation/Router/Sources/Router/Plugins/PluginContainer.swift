/// The plugins of one extension point in one place (one product page): made from the declaration in its
/// order, each with a context and a bus of this container alone, run through their lifecycle, and kept
/// apart: a plugin that throws is left out with its reason, and the others go on.
public final class PluginContainer<Point: ExtensionPoint>: Sendable {
    /// One plugin of the container.
    public struct Member: Sendable {
        /// The plugin's id.
        public let id: String
        /// The plugin.
        public let plugin: Point.Plugin
        /// Marks around calls into a runtime plugin.
        let calls: PluginCalls?
    }

    /// This container's bus: what its plugins and its host publish reaches no other container and not
    /// the app-wide bus, unless forwarded on purpose.
    public let events: EventBus
    /// The plugins made, in declared order.
    public let members: [Member]
    private let registry: PluginRegistry
    private let state = Locked((failures: [PluginFailure](), detached: false))

    init(registry: PluginRegistry, router: Router) {
        self.registry = registry
        let events = EventBus()
        self.events = events
        let enabled = registry.enabled(Point.id)
        var members: [Member] = []
        members.reserveCapacity(enabled.count)
        var failures: [PluginFailure] = []
        for (declaration, entry) in enabled {
            let context = PluginContext(
                plugin: entry.id, point: Point.id, settings: PluginSettings(declaration.settings),
                events: entry.scope.map { events.narrowed(to: $0) } ?? events, router: entry.scope.map { router.narrowed(to: $0) } ?? router)
            let calls = entry.scope?.calls ?? PluginCalls()
            do {
                let plugin = try calls.run {
                    guard let plugin = try entry.make(context) as? Point.Plugin else {
                        throw PluginTypeMismatch(plugin: entry.id, expected: "\(Point.Plugin.self)")
                    }
                    try (plugin as? any ContainerPlugin)?.attach(context)
                    return plugin
                }
                members.append(Member(id: entry.id, plugin: plugin, calls: entry.scope?.calls))
            } catch {
                failures.append(PluginFailure(plugin: entry.id, point: Point.id, stage: "attaching", reason: "\(error)"))
            }
        }
        self.members = members
        state.withLock { $0.failures = failures }
        failures.forEach(registry.report)
    }

    /// The plugins left out so far, and why.
    public var failures: [PluginFailure] { state.withLock { $0.failures } }

    /// What each plugin contributes, in order; a plugin that throws is left out of this result (reported,
    /// and listed in ``failures``), and a nil contribution is skipped.
    public func contributions<Contribution>(_ contribute: (Point.Plugin) async throws -> Contribution?) async -> [Contribution] {
        var result: [Contribution] = []
        result.reserveCapacity(members.count)
        for member in members {
            do {
                let contribution =
                    if let calls = member.calls { try await calls.run { try await contribute(member.plugin) } } else { try await contribute(member.plugin) }
                if let contribution { result.append(contribution) }
            } catch {
                let failure = PluginFailure(plugin: member.id, point: Point.id, stage: "contributing", reason: "\(error)")
                state.withLock { $0.failures.append(failure) }
                registry.report(failure)
            }
        }
        return result
    }

    /// Tells every plugin the container is about to be shown.
    public func appear() async {
        for index in members.indices { await marked(index) { await lifecycle(of: index)?.containerWillAppear() } }
    }

    /// Tells every plugin the container is no longer shown.
    public func disappear() async {
        for index in members.indices { await marked(index) { await lifecycle(of: index)?.containerDidDisappear() } }
    }

    /// Detaches every plugin, last first, once; the container is done after it.
    public func detach() {
        let first = state.withLock { state in
            defer { state.detached = true }
            return !state.detached
        }
        guard first else { return }
        for index in members.indices.reversed() { (members[index].calls ?? PluginCalls()).run { lifecycle(of: index)?.detach() } }
    }

    /// Runs `body` inside the call marks of the plugin at `index`, if it has any.
    private func marked(_ index: Int, _ body: () async -> Void) async {
        if let calls = members[index].calls { await calls.run(body) } else { await body() }
    }

    /// The lifecycle hooks of the plugin at `index`. Casting the stored value in place: a loop over
    /// (reversed) copies of the generic members costs an allocation per plugin in unspecialized code.
    private func lifecycle(of index: Int) -> (any ContainerPlugin)? {
        members[index].plugin as? any ContainerPlugin
    }

    /// Republishes every `E` of `bus` (usually the app-wide one) on this container's bus, while the container lives.
    public func forward<E: AppEvent>(_ event: E.Type, from bus: EventBus) {
        bus.subscribe(self, to: event) { container, event in container.events.publish(event) }
    }
}

private struct PluginTypeMismatch: Error, CustomStringConvertible {
    let plugin: String
    let expected: String
    var description: String { "its factory made no \(expected)" }
}
