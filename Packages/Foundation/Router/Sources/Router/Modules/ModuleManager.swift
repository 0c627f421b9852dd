import Foundation

/// How one module is doing, and what its start cost.
public struct ModuleStatus: Sendable, Equatable {
    /// Running, or disabled and why.
    public enum State: Sendable, Equatable {
        /// Registered (and launched, once launch ran).
        case running
        /// Taken out: its routes and services are withdrawn.
        case disabled(reason: String)
    }

    /// The module's name.
    public var name: String
    /// Running or disabled.
    public var state: State
    /// How long `register` took (nil: not called, a dependency was disabled first).
    public var registerTime: Duration?
    /// How long its launch work took (nil: it handles no launch, or it has not finished).
    public var launchTime: Duration?
    /// When its launch work runs.
    public var launchTiming: LaunchTiming
}

/// What the module manager tells the App as it happens.
public enum ModuleReport: Sendable, Equatable {
    /// A module was taken out: it threw while registering or launching, or a dependency was taken out;
    /// `withdrawn` are the routes it had registered, as they were.
    case disabled(module: String, reason: String, withdrawn: [RouteDescription] = [])
    /// A running module threw while handling an event other than launch; it stays running.
    case eventFailed(module: String, event: LifecycleEvent.Kind, error: String)
    /// A module handled an event (for tracing the order of delivery).
    case delivered(module: String, event: LifecycleEvent.Kind)
}

/// Boots modules in dependency order (ties: higher priority, then name) and announces lifecycle events
/// to the modules that declare them.
///
/// A module that throws while registering or launching is disabled, not fatal: what it registered is
/// withdrawn, the modules that depend on it are disabled too, and everything else boots. Only a wrong
/// set of modules (a duplicate name, an unknown dependency, a cycle, an unknown event) stops the boot.
public final class ModuleManager: Sendable {
    /// The context every module gets.
    public let context: ModuleContext

    private struct State {
        var modules: [any AppModule]
        var announced: Set<LifecycleEvent.Kind>
        var absent: Set<String>
        var statuses: [String: ModuleStatus] = [:]
        var deferred: Task<Void, Never>?

        mutating func add(_ added: [any AppModule]) {
            modules += added
            for module in added { statuses[module.name] = ModuleStatus(name: module.name, state: .running, launchTiming: module.launchTiming) }
        }
    }

    private let state: Locked<State>
    private let report: @Sendable (ModuleReport) -> Void

    /// Orders `modules`; throws on a duplicate name, an unknown dependency, a cycle, or a declared event that
    /// is neither built in nor announced by a module. An app's own event is named after the module that
    /// announces it (`user.signed-out`); one of a component in `absent` (left out of this app) is never sent,
    /// so declaring it is no error. `report` hears disabled modules and failed events.
    public init(
        modules: [any AppModule], context: ModuleContext, absent: Set<String> = [], report: @escaping @Sendable (ModuleReport) -> Void = { _ in }
    ) throws {
        self.context = context
        self.report = report
        var state = State(modules: [], announced: try Self.checkEvents(of: modules, absent: absent), absent: absent)
        state.add(try Self.order(modules))
        self.state = Locked(state)
        context.lifecycle.attach(self)
    }

    /// The modules in boot order (the ones adopted later at the end).
    public var modules: [any AppModule] { state.withLock { $0.modules } }

    /// Takes in `added`, modules that registered on their own (runtime plugins, loaded after the others):
    /// they hear events from now on. Throws, adopting none, on a name taken or an unknown event.
    public func adopt(_ added: [any AppModule]) throws {
        try state.withLock { state in
            let all = state.modules + added
            _ = try Self.order(all)
            state.announced = try Self.checkEvents(of: all, absent: state.absent)
            state.add(added)
        }
    }

    /// Each module's status, in boot order.
    public var statuses: [ModuleStatus] {
        let statuses = state.withLock { $0.statuses }
        return modules.compactMap { statuses[$0.name] }
    }

    /// Whether `name` is a module that runs (not disabled).
    public func isRunning(_ name: String) -> Bool {
        state.withLock { $0.statuses[name]?.state == .running }
    }

    /// Registers every module, in boot order. A module that throws, or whose dependency is disabled, is
    /// disabled and what it registered withdrawn; the rest go on.
    public func registerAll() {
        for module in modules {
            if let down = module.dependencies.first(where: { !isRunning($0) }) {
                disable(module.name, reason: "its dependency '\(down)' is disabled")
                continue
            }
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try module.register(in: context)
                let time = clock.now - start
                state.withLock { $0.statuses[module.name]?.registerTime = time }
            } catch {
                let time = clock.now - start
                state.withLock { $0.statuses[module.name]?.registerTime = time }
                disable(module.name, reason: "it failed to register: \(error)")
            }
        }
    }

    /// Announces `launch` with `options`: the App waits for the modules whose launch work comes before the
    /// first screen; the others start at once and run on (``finishDeferredLaunches()`` waits for them).
    /// A module that throws is disabled, and so are the modules that depend on it.
    public func launch(_ options: LaunchOptions = .plain) async {
        let launching = modules.filter { $0.events.contains(.launch) }
        for module in launching where module.launchTiming == .beforeFirstScreen {
            await launch(module, options)
        }
        let deferred = launching.filter { $0.launchTiming == .afterFirstScreen }
        guard !deferred.isEmpty else { return }
        let task = Task {
            for module in deferred { await self.launch(module, options) }
        }
        state.withLock { $0.deferred = task }
    }

    /// Waits for the launch work that runs after the first screen (before the App exits, so none is cut short).
    public func finishDeferredLaunches() async {
        await state.withLock { $0.deferred }?.value
    }

    private func launch(_ module: any AppModule, _ options: LaunchOptions) async {
        guard isRunning(module.name) else { return }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await module.handle(.launch(options), in: context)
            let time = clock.now - start
            state.withLock { $0.statuses[module.name]?.launchTime = time }
            report(.delivered(module: module.name, event: .launch))
        } catch {
            disable(module.name, reason: "it failed to launch: \(error)")
        }
    }

    /// Announces `event` to the running modules that declare it: in boot order, or the other way round for
    /// `background` and `terminate`. An `openURL` stops at the module that claims it. A module that throws
    /// is reported and keeps running.
    public func send(_ event: LifecycleEvent) async {
        let modules = self.modules
        let ordered = event.isReversed ? modules.reversed() : modules
        for module in ordered where module.events.contains(event.kind) && isRunning(module.name) {
            if case .openURL(let incoming) = event, incoming.claimedBy != nil { break }
            do {
                try await module.handle(event, in: context)
                report(.delivered(module: module.name, event: event.kind))
            } catch {
                report(.eventFailed(module: module.name, event: event.kind, error: "\(error)"))
            }
        }
    }

    /// Sends the app's own event `kind`, which a module must announce.
    func sendCustom(_ kind: LifecycleEvent.Kind, _ values: [String: String]) async throws {
        let announced = state.withLock { $0.announced }
        if LifecycleEvent.Kind.builtIn.contains(kind) {
            throw RouterError.builtInLifecycleEventSent(event: kind.name, known: announced.map(\.name).sorted())
        }
        guard announced.contains(kind) else {
            throw RouterError.unknownLifecycleEvent(module: nil, event: kind.name, known: announced.map(\.name).sorted())
        }
        await send(.custom(kind, values))
    }

    /// The app's own events the modules announce.
    public var announcedEvents: [LifecycleEvent.Kind] { state.withLock { $0.announced }.sorted() }

    /// Takes `name` out: withdraws its routes and services, reports it, and takes out what depends on it.
    public func disable(_ name: String, reason: String) {
        let changed = state.withLock { state -> Bool in
            guard state.statuses[name]?.state == .running else { return false }
            state.statuses[name]?.state = .disabled(reason: reason)
            return true
        }
        guard changed else { return }
        let withdrawn = context.router.unregisterAll(owner: name)
        context.services.unregisterAll(owner: name)
        report(.disabled(module: name, reason: reason, withdrawn: withdrawn))
        for module in modules where module.dependencies.contains(name) {
            disable(module.name, reason: "its dependency '\(name)' is disabled")
        }
    }

    private static func checkEvents(of modules: [any AppModule], absent: Set<String>) throws -> Set<LifecycleEvent.Kind> {
        var announced = Set<LifecycleEvent.Kind>()
        for module in modules {
            for kind in module.announces.sorted() {
                guard kind.isWellFormedCustomName, kind.name.hasPrefix(module.name + "."), !LifecycleEvent.Kind.builtIn.contains(kind) else {
                    throw RouterError.badLifecycleEventName(module: module.name, event: kind.name)
                }
                announced.insert(kind)
            }
        }
        let known = (LifecycleEvent.Kind.builtIn + announced.sorted()).map(\.name)
        for module in modules {
            for kind in module.events.sorted() where !LifecycleEvent.Kind.builtIn.contains(kind) && !announced.contains(kind) {
                let owner = kind.name.split(separator: ".").first.map(String.init) ?? ""
                if absent.contains(owner) { continue }
                throw RouterError.unknownLifecycleEvent(module: module.name, event: kind.name, known: known)
            }
        }
        return announced
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
