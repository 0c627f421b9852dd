/// What a module registers into and reads from: the one router (with its services and events).
public struct ModuleContext: Sendable {
    /// The router the module registers its routes on.
    public let router: Router
    /// Settings for modules, such as file locations, usually from the environment.
    public let settings: [String: String]

    /// Creates a context.
    public init(router: Router, settings: [String: String] = [:]) {
        self.router = router
        self.settings = settings
    }

    /// The router's services.
    public var services: ServiceRegistry { router.services }
    /// The router's event bus.
    public var events: EventBus { router.events }
}

/// An application lifecycle event, announced to every module.
public enum LifecycleEvent: Sendable, Hashable {
    /// The app finished launching; modules are registered.
    case launch
    /// The app came to the foreground (the interactive shell started).
    case foreground
    /// The app went to the background.
    case background
    /// The app is about to exit; delivered in reverse boot order.
    case terminate
    /// An event of the app's own, by name.
    case custom(String)
}

/// The one module type each component ships: it registers the component's routes, services and
/// subscriptions ("who provides, maintains") and hears lifecycle events.
public protocol AppModule: Sendable {
    /// The component's name in components.yaml; the owner of everything the module registers.
    var name: String { get }
    /// Higher runs earlier among modules whose dependencies are met.
    var priority: Int { get }
    /// Names of modules that must register and hear events before this one.
    var dependencies: [String] { get }
    /// Registers routes, services and subscriptions.
    func register(in context: ModuleContext) throws
    /// Reacts to a lifecycle event.
    func handle(_ event: LifecycleEvent, in context: ModuleContext) async
}

extension AppModule {
    /// Normal priority.
    public var priority: Int { 0 }
    /// No dependencies.
    public var dependencies: [String] { [] }
    /// Ignores lifecycle events.
    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async {}
}

/// Boots modules in dependency order (ties: higher priority, then name) and announces lifecycle events.
public struct ModuleManager: Sendable {
    /// The modules in boot order.
    public let modules: [any AppModule]
    /// The context every module gets.
    public let context: ModuleContext

    /// Orders `modules`; throws on a duplicate name, an unknown dependency or a cycle.
    public init(modules: [any AppModule], context: ModuleContext) throws {
        self.modules = try Self.order(modules)
        self.context = context
    }

    /// Registers every module, in boot order.
    public func registerAll() throws {
        for module in modules { try module.register(in: context) }
    }

    /// Announces `event` to every module, one after another: in boot order, or reversed for `terminate`.
    public func send(_ event: LifecycleEvent) async {
        let ordered = event == .terminate ? modules.reversed() : modules
        for module in ordered { await module.handle(event, in: context) }
    }

    private static func order(_ modules: [any AppModule]) throws -> [any AppModule] {
        var byName: [String: any AppModule] = [:]
        for module in modules {
            guard byName.updateValue(module, forKey: module.name) == nil else { throw RouterError.duplicateModule(module.name) }
        }
        for module in modules {
            for dependency in module.dependencies where byName[dependency] == nil {
                throw RouterError.unknownModuleDependency(module: module.name, dependency: dependency)
            }
        }
        var remaining = byName
        var ordered: [any AppModule] = []
        while !remaining.isEmpty {
            let ready = remaining.values.filter { $0.dependencies.allSatisfy { remaining[$0] == nil } }
            guard let next = ready.min(by: { ($1.priority, $0.name) < ($0.priority, $1.name) }) else {
                throw RouterError.moduleCycle(cycle(in: remaining))
            }
            ordered.append(next)
            remaining[next.name] = nil
        }
        return ordered
    }

    private static func cycle(in remaining: [String: any AppModule]) -> [String] {
        // Every remaining module waits on another remaining one, so walking first dependencies must loop.
        guard var current = remaining.keys.min() else { return [] }
        var path: [String] = []
        while !path.contains(current) {
            path.append(current)
            guard let next = remaining[current]?.dependencies.filter({ remaining[$0] != nil }).min() else { break }
            current = next
        }
        guard let start = path.firstIndex(of: current) else { return path }
        return Array(path[start...]) + [current]
    }
}
