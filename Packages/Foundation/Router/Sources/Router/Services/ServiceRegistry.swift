/// Protocol -> factory registry: a component provides a service under an interface protocol,
/// others resolve it by that protocol without knowing the implementation.
public final class ServiceRegistry: Sendable {
    /// How long a resolved instance lives.
    public enum Scope: Sendable {
        /// One instance, made on first use and shared.
        case singleton
        /// A new instance on every resolve.
        case transient
    }

    private struct Registration: Sendable {
        var owner: String
        var name: String
        var scope: Scope
        var factory: @Sendable (ServiceResolver) throws -> any Sendable
    }

    private struct State: Sendable {
        var registrations: [ObjectIdentifier: Registration] = [:]
        var instances: [ObjectIdentifier: any Sendable] = [:]
        var observer: (@Sendable (String) -> Void)?
    }

    private let state: Locked<State>
    /// The bounds of the runtime plugin this registry was narrowed for; nil: the registry itself.
    private let pluginScope: PluginScope?

    /// Creates an empty registry.
    public init() {
        state = Locked(State())
        pluginScope = nil
    }

    private init(narrowing base: ServiceRegistry, to scope: PluginScope) {
        state = base.state
        pluginScope = scope
    }

    /// This registry as a runtime plugin gets it: it resolves services, and provides or removes none
    /// (``PluginScope``).
    public func narrowed(to scope: PluginScope) -> ServiceRegistry {
        ServiceRegistry(narrowing: self, to: scope)
    }

    /// Registers `factory` as the provider of `service`; a second provider is an error naming both owners.
    public func register<Service: Sendable>(
        _ service: Service.Type, owner: String, scope: Scope = .singleton,
        factory: @escaping @Sendable (ServiceResolver) throws -> Service
    ) throws {
        let key = ObjectIdentifier(service)
        let name = "\(service)"
        // The App calls a service's methods unmarked, and its manifest declares none: a runtime plugin provides no service.
        if let pluginScope { throw pluginScope.breach("provide the service \(name)") }
        try state.withLock { state in
            if let existing = state.registrations[key] {
                throw RouterError.duplicateService(service: name, owner: owner, existingOwner: existing.owner)
            }
            state.registrations[key] = Registration(owner: owner, name: name, scope: scope, factory: factory)
        }
    }

    /// Registers an instance that already exists.
    public func register<Service: Sendable>(_ service: Service.Type, owner: String, instance: Service) throws {
        try register(service, owner: owner) { _ in instance }
    }

    /// Sets who hears of a service asked for that nobody provides.
    public func setObserver(_ observer: (@Sendable (String) -> Void)?) {
        if let pluginScope {
            pluginScope.breach("set the services' observer")
            return
        }
        state.withLock { $0.observer = observer }
    }

    /// Removes every service `owner` provides (a module that is disabled); returns their names.
    @discardableResult
    public func unregisterAll(owner: String) -> [String] {
        if let pluginScope {
            pluginScope.breach("remove the services of '\(owner)'")
            return []
        }
        return state.withLock { state in
            let keys = state.registrations.filter { $0.value.owner == owner }.map(\.key)
            for key in keys { state.instances[key] = nil }
            return keys.compactMap { state.registrations.removeValue(forKey: $0)?.name }.sorted()
        }
    }

    /// The provider of `service`; throws ``RouterError/unknownService(_:)`` when nobody registered it.
    public func resolve<Service: Sendable>(_ service: Service.Type) throws -> Service {
        try ServiceResolver(registry: self, chain: []).resolve(service)
    }

    /// The provider of `service`, or nil when nobody registered it: for a service a component can do
    /// without (a feature left out of the app), so its absence is not reported as a miss.
    public func optional<Service: Sendable>(_ service: Service.Type) throws -> Service? {
        guard isRegistered(service) else { return nil }
        return try resolve(service)
    }

    /// Whether some component provides `service`.
    public func isRegistered<Service>(_ service: Service.Type) -> Bool {
        state.withLock { $0.registrations[ObjectIdentifier(service)] != nil }
    }

    /// Every registered service with its owner, sorted by service name.
    public var registrations: [(service: String, owner: String)] {
        state.withLock { $0.registrations.values.map { ($0.name, $0.owner) } }.sorted { $0.service < $1.service }
    }

    fileprivate func resolve<Service: Sendable>(_ service: Service.Type, chain: [String]) throws -> Service {
        let key = ObjectIdentifier(service)
        let (registration, cached, observer) = state.withLock { ($0.registrations[key], $0.instances[key], $0.observer) }
        guard let registration else {
            observer?("\(service)")
            throw RouterError.unknownService("\(service)")
        }
        if let typed = cached as? Service { return typed }
        guard !chain.contains(registration.name) else { throw RouterError.serviceCycle(chain + [registration.name]) }
        let made = try registration.factory(ServiceResolver(registry: self, chain: chain + [registration.name]))
        guard let typed = made as? Service else { throw RouterError.unknownService("\(service)") }
        guard registration.scope == .singleton else { return typed }
        // Two tasks may race to make a singleton; the first one stored wins, so everyone shares it.
        let winner = state.withLock { state in
            if let stored = state.instances[key] { return stored }
            state.instances[key] = typed
            return typed
        }
        return (winner as? Service) ?? typed
    }
}

/// What a service factory resolves its own dependencies through; it detects factories that need each other.
public struct ServiceResolver: Sendable {
    fileprivate let registry: ServiceRegistry
    fileprivate let chain: [String]

    /// Resolves `service`, following the chain of the factory being run.
    public func resolve<Service: Sendable>(_ service: Service.Type) throws -> Service {
        try registry.resolve(service, chain: chain)
    }
}
