/// What a module registers into and reads from: the one router (with its services and events).
public struct ModuleContext: Sendable {
    /// The router the module registers its routes on.
    public let router: Router
    /// Settings for modules, such as file locations, usually from the environment.
    public let settings: [String: String]
    /// Where a module sends the app's own lifecycle events it announces.
    public let lifecycle: LifecycleChannel

    /// Creates a context.
    public init(router: Router, settings: [String: String] = [:]) {
        self.router = router
        self.settings = settings
        self.lifecycle = LifecycleChannel()
    }

    private init(router: Router, settings: [String: String], lifecycle: LifecycleChannel) {
        self.router = router
        self.settings = settings
        self.lifecycle = lifecycle
    }

    /// This context as a runtime plugin gets it: the router narrowed to `scope`, the same settings and
    /// lifecycle channel.
    public func narrowed(to scope: PluginScope) -> ModuleContext {
        ModuleContext(router: router.narrowed(to: scope), settings: settings, lifecycle: lifecycle)
    }

    /// The router's services.
    public var services: ServiceRegistry { router.services }
    /// The router's event bus.
    public var events: EventBus { router.events }
}

/// When a module's launch work runs.
public enum LaunchTiming: Sendable, Equatable {
    /// Before the first screen: the App waits for it (the default; for what the first screen needs).
    case beforeFirstScreen
    /// After the first screen is on its way: the App does not wait (warming caches, syncing).
    case afterFirstScreen
}

/// The one module type each component ships: it registers the component's routes, services and
/// subscriptions ("who provides, maintains") and hears the lifecycle events it declares.
public protocol AppModule: Sendable {
    /// The component's name in components.yaml; the owner of everything the module registers.
    var name: String { get }
    /// Higher runs earlier among modules whose dependencies are met.
    var priority: Int { get }
    /// Names of modules that must register and hear events before this one.
    var dependencies: [String] { get }
    /// The lifecycle events this module handles; it is not called for the others.
    var events: Set<LifecycleEvent.Kind> { get }
    /// The app's own lifecycle events this module sends (through ``ModuleContext/lifecycle``); other modules
    /// may declare them.
    var announces: Set<LifecycleEvent.Kind> { get }
    /// When its launch work runs: before the first screen (awaited) or after it.
    var launchTiming: LaunchTiming { get }
    /// Registers routes, services and subscriptions. A module that throws is disabled, and the App goes on.
    func register(in context: ModuleContext) throws
    /// Reacts to a lifecycle event it declared. A module that throws while handling `launch` is disabled.
    func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws
}

extension AppModule {
    /// Normal priority.
    public var priority: Int { 0 }
    /// No dependencies.
    public var dependencies: [String] { [] }
    /// No lifecycle events.
    public var events: Set<LifecycleEvent.Kind> { [] }
    /// No events of its own.
    public var announces: Set<LifecycleEvent.Kind> { [] }
    /// Launch work before the first screen.
    public var launchTiming: LaunchTiming { .beforeFirstScreen }
    /// Ignores lifecycle events.
    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {}
}

/// Where modules send the app's own lifecycle events: to the module manager booting them.
public final class LifecycleChannel: Sendable {
    // Weak: the manager holds the context that holds this channel.
    private final class Reference: @unchecked Sendable {
        weak var manager: ModuleManager?
    }

    private let reference = Locked(Reference())

    init() {}

    func attach(_ manager: ModuleManager) {
        reference.withLock { $0.manager = manager }
    }

    /// Announces the app's own event `kind` with `values` to the modules that declare it; throws
    /// ``RouterError/unknownLifecycleEvent(module:event:known:)`` unless a module announces that kind.
    public func send(_ kind: LifecycleEvent.Kind, _ values: [String: String] = [:]) async throws {
        guard let manager = reference.withLock({ $0.manager }) else { return }
        try await manager.sendCustom(kind, values)
    }
}
