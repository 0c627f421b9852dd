import Glibc
import PluginFeed
import Router

/// Loads one verified runtime plugin into the running App: `dlopen`, the manifest's entry symbol, and the
/// registration of what it exports, held to what its manifest declares.
///
/// A library is never closed again (`dlclose` of a Swift image is unsafe: its metadata stays registered
/// with the runtime), so a plugin loaded once stays until the App exits.
enum PluginLoader {
    /// What one load added.
    struct Loaded {
        var module: (any AppModule)?
    }

    /// Loads `library` and registers its export on `router`, narrowed to what `manifest` declares
    /// (``PluginScope``); throws naming what was refused. On failure nothing the plugin registered or
    /// published stays. Every call into its code runs inside `calls`. A registration it tries after its
    /// load is refused, turns it off (its routes, contributions and subscriptions go) and is sent to
    /// `lateBreach`.
    static func load(
        _ verified: VerifiedVersion, router: Router, settings: [String: String], calls: PluginCalls = PluginCalls(),
        lateBreach: @escaping @Sendable (String) -> Void
    ) throws -> Loaded {
        let manifest = verified.manifest
        let scope: PluginScope
        do {
            scope = try PluginScope(owner: manifest.id, patterns: manifest.routes, calls: calls)
        } catch {
            throw FeedError("its manifest declares a malformed route: \(error)")
        }
        try checkBounds(of: manifest, on: router)
        // Loading runs the library's initializers: the plugin's code too.
        let handle = try calls.run { try open(verified) }
        guard let symbol = dlsym(handle, manifest.entry) else {
            throw FeedError("the library has no entry symbol '\(manifest.entry)'")
        }
        do {
            // Everything that runs the plugin's code (its entry, its definitions' and module's properties,
            // its registration) inside its marks: a crash there is its crash.
            let module = try calls.run {
                try register(
                    manifest, symbol: symbol, context: ModuleContext(router: router, settings: settings).narrowed(to: scope), scope: scope,
                    registry: router.plugins)
            }
            scope.accept { breach in
                turnOff(scope, on: router)
                lateBreach(breach)
            }
            return Loaded(module: module)
        } catch {
            turnOff(scope, on: router)
            if let breach = scope.breaches.first { throw FeedError("it tried to \(breach); a runtime plugin may not, so its whole load is undone") }
            if let error = error as? FeedError { throw error }
            throw FeedError("its registration failed: \(error)")
        }
    }

    /// Maps the library from the file its check read and hashed, held open since (by `/proc/self/fd`), so a file
    /// put in its place meanwhile is not what loads; by its name only where the system has no `/proc`.
    private static func open(_ verified: VerifiedVersion) throws -> UnsafeMutableRawPointer {
        let file = verified.library.path
        let path = verified.opened.path ?? file
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0).replacingOccurrences(of: path, with: file) } ?? "unknown reason"
            throw FeedError("the library does not load: \(reason)")
        }
        verified.opened.keepOpen()
        return handle
    }

    /// Calls the plugin's entry, registers its export in `context` and adds its contributions to the App's
    /// `registry`; returns its module, as the App holds it.
    private static func register(
        _ manifest: PluginManifest, symbol: UnsafeMutableRawPointer, context: ModuleContext, scope: PluginScope, registry: PluginRegistry
    ) throws -> NarrowedModule? {
        typealias Entry = @convention(c) () -> UnsafeMutableRawPointer?
        guard let pointer = unsafeBitCast(symbol, to: Entry.self)(), let export = RuntimePluginExport.take(pointer) else {
            throw FeedError(
                "the entry '\(manifest.entry)' returned no RuntimePluginExport of this App's Router: the plugin links its own copy of the router "
                    + "(it must depend on the RouterDynamic product, not Router)")
        }
        let declared = Set(manifest.contributions.map { [$0.point, $0.plugin] })
        for contribution in export.contributions where !declared.contains([contribution.point.rawValue, contribution.plugin]) {
            throw FeedError("it contributes '\(contribution.plugin)' to \(contribution.point), which its manifest does not declare")
        }
        let module = try export.module.map { try NarrowedModule($0, of: manifest, scope: scope) }
        try module?.module.register(in: context)
        for definition in export.definitions { try definition.register(in: context) }
        // A plugin may catch a refusal and go on: what it tried is refused all the same.
        if !scope.breaches.isEmpty { throw CancellationError() }
        try registry.add(export.definitions, source: "runtime plugin \(manifest.id) \(manifest.version)", scope: scope)
        return module
    }

    /// Takes out all the plugin registered: routes, contributions, subscriptions and what it publishes from now on.
    private static func turnOff(_ scope: PluginScope, on router: Router) {
        scope.revoke(on: router.events)
        router.unregisterAll(owner: scope.owner)
        router.plugins.withdraw(scope)
    }

    /// Refuses a plugin whose id already owns something of the App (it would register, and could remove,
    /// as that component), or one of whose declared patterns matches a URL a registered route matches
    /// (one of the two would shadow the other).
    private static func checkBounds(of manifest: PluginManifest, on router: Router) throws {
        if let owned = router.anyRoute(ownedBy: manifest.id) {
            throw FeedError("its id '\(manifest.id)' already owns the route \(owned.pattern) of the App: a plugin's id is its own")
        }
        if let service = router.services.registrations.first(where: { $0.owner == manifest.id }) {
            throw FeedError("its id '\(manifest.id)' already provides the service \(service.service) of the App: a plugin's id is its own")
        }
        for text in manifest.routes {
            guard let pattern = try? RoutePattern(parsing: text), let other = router.overlappingRoute(pattern) else { continue }
            throw FeedError(
                "its route \(text) matches URLs that \(other.pattern) of '\(other.owner)' matches, so one would answer the other's links; "
                    + "a plugin's routes must match no URL another route matches")
        }
    }
}

/// A runtime plugin's module as the App's module manager holds it: what it declares is read once, inside
/// the plugin's call marks, and the lifecycle events it hears come with a context narrowed to its scope,
/// inside its marks too.
struct NarrowedModule: AppModule {
    let module: any AppModule
    let scope: PluginScope
    let name: String
    let priority: Int
    let dependencies: [String]
    let events: Set<LifecycleEvent.Kind>
    let announces: Set<LifecycleEvent.Kind>
    let launchTiming: LaunchTiming

    /// The module of the plugin `manifest` describes; throws for a module named otherwise, or one that
    /// would hear the links and pushes the App receives (a module that hears them may claim or rewrite them).
    init(_ module: any AppModule, of manifest: PluginManifest, scope: PluginScope) throws {
        (self.module, self.scope) = (module, scope)
        (name, priority, dependencies) = (module.name, module.priority, module.dependencies)
        (events, announces, launchTiming) = (module.events, module.announces, module.launchTiming)
        guard name == manifest.id else {
            throw FeedError("its module is named '\(name)', not '\(manifest.id)': a runtime plugin's module is named after the plugin")
        }
        if let kind = events.intersection([.openURL, .notification]).first {
            throw FeedError("its module handles \(kind.name), which would let it claim or rewrite what the App receives; a runtime plugin's module may not")
        }
    }

    /// Registered already, by the loader.
    func register(in context: ModuleContext) throws {}

    func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        try await scope.calls.run { try await module.handle(event, in: context.narrowed(to: scope)) }
    }
}
