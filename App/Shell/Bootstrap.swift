import Foundation
import HomeInterface
import Logging
public import Router
import RuntimePlugins
import ScreenKit
import Storage
import Synchronization

/// Assembles an app: creates the modules its definition lists (generated from components.yaml's `apps:`)
/// and gives them the services they share.
///
/// Only the shell's own set-up can stop a start (the database, the plugin declaration, the settings): a
/// module that fails to register or launch is disabled, its routes answer "temporarily unavailable",
/// and every other module boots.
public struct Bootstrap: Sendable {
    /// The router every module registered on.
    public let router: Router
    /// The modules, to announce lifecycle events to and to ask how each is doing.
    public let modules: ModuleManager
    /// Where the database lives.
    public let databasePath: String
    /// The runtime plugins, when this start could use them.
    let runtimePlugins: RuntimePluginManager?
    /// What the start cost, phase by phase.
    let profile: StartupProfile
    /// Where the App's observations are logged.
    let observer: AppObserver
    /// The configuration files served from URLs, when there are any.
    let remote: RemoteConfiguration?

    /// Opens the database, installs the app's plugins (throws ``PluginConfigurationError`` for a wrong
    /// declaration), registers every module in dependency order, loads the runtime plugins and announces
    /// `launch` with `options`, waiting only for the launch work that comes before the first screen.
    static func boot(
        environment: [String: String], app: AppDefinition, launch options: LaunchOptions, logger: Logger, profile: StartupProfile,
        progress: @escaping @Sendable (String) -> Void, run: RunEnd
    ) async throws -> Bootstrap {
        let observer = AppObserver(logger: logger)
        let plugins = app.plugins
        let path = StorageLocation.databasePath(environment: environment)
        let storage = try profile.measure("open the database") { try Storage(path: path) }
        let router = Router()
        // Routes of the app's scheme only: a component or a runtime plugin registering `evil://` is refused.
        router.setAllowedSchemes(app.scheme.map { [$0] })
        router.setObserver(observer.routing)
        router.plugins.setFailureReporter { failure in logger.warning("\(failure)") }
        try profile.measure("install the plugin declaration") {
            try router.plugins.install(points: plugins.points, definitions: plugins.definitions, declarations: plugins.declarations)
        }
        // Modules and plugins reach the database as a service: the generated wiring passes them no arguments.
        try router.services.register(Storage.self, owner: "app", instance: storage)
        let dataFolder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let remote = try RemoteConfiguration.configured(environment: environment, dataFolder: dataFolder, logger: logger)
        if let remote {
            await profile.measure("fetch the remote configuration") { await remote.refresh() }
            if remote.names.contains(RemoteConfiguration.homeLayout) {
                try router.services.register((any HomeLayoutSource).self, owner: "app", instance: RemoteHomeLayout(remote: remote))
            }
        }
        let settings = try ShellSettings(environment: environment, app: app, remote: remote, storage: storage)
        let notFound = AbsentFeatures.fallback(app.absent, app: app.name, home: app.start ?? AppRunner.homeRoute) { request in
            settings.webFallback(for: request.url) ?? ShellScreens.notFound(request.url.original)
        }
        var runtimePlugins: RuntimePluginManager?
        do {
            runtimePlugins = try AppRuntimePlugins.manager(environment: environment, versions: app.hostAPI, logger: logger, progress: progress)
            run.runtimePlugins = runtimePlugins
        } catch {
            logger.warning("runtime plugins are off in this start: \(error)")
        }
        let lateModules = AppRuntimePlugins.LateModuleManager()
        router.setFallback(
            runtimePlugins.map { AppRuntimePlugins.onDemandFallback($0, router: router, modules: lateModules, fallback: notFound) } ?? notFound)
        router.setWebContainer { request in ShellScreens.webPage(request.url.original) }
        router.setExternalLinkVerifier(settings.linkVerifier)
        router.setDegradeTable(settings.degradeTable)
        if logger.logLevel <= .info { try router.addInterceptor(LoggingInterceptor(logger: logger)) }

        let context = ModuleContext(router: router, settings: AppSettings.moduleSettings(environment: environment, app: app))
        let manager = try ModuleManager(
            modules: try FaultInjection.apply(environment, to: app.modules() + router.plugins.modules()), context: context,
            absent: Set(app.absent.map(\.component))
        ) { report in
            observer.modules(report)
            if case .disabled(let module, let reason) = report {
                Unavailable.register(module, reason: reason, patterns: app.routes[module] ?? [], on: router)
            }
        }
        lateModules.manager = manager
        profile.measure("register the modules") { manager.registerAll() }
        // Runtime plugins load after the linked modules: a plugin can never take a route the App owns.
        let loaded = profile.measure("load the runtime plugins") { runtimePlugins?.loadInstalled(into: router, settings: environment) ?? [] }
        do {
            try manager.adopt(loaded)
        } catch {
            logger.warning("runtime plugin modules hear no lifecycle events: \(error)")
        }
        for rule in settings.degradeTable.unmatchedRules(among: router.routes) {
            logger.warning("degrade rule matches no route", metadata: ["pattern": "\(rule.pattern)", "source": "\(settings.degradeSource)"])
        }
        await profile.measure("launch the modules (before the first screen)") { await manager.launch(options) }
        return Bootstrap(
            router: router, modules: manager, databasePath: path, runtimePlugins: runtimePlugins, profile: profile, observer: observer, remote: remote)
    }

    /// The App comes to the foreground: the remote configuration is asked again (not at the shell's start,
    /// which fetched it a moment ago), a new degrade table applies at once, and the modules hear
    /// `foreground` (Home reads its layout).
    func comeToForeground(environment: [String: String], app: AppDefinition, refreshing: Bool = true) async {
        if let remote, refreshing {
            await remote.refresh()
            if let (table, _) = try? AppSettings.degradeTable(environment: environment, app: app, remote: remote) { router.setDegradeTable(table) }
        }
        await modules.send(.foreground)
    }

    /// Ends the run cleanly: waits for launch work still running, modules hear `terminate`, and the runtime
    /// plugins on trial that loaded have now run once (a run that never gets here is counted as a crash).
    public func finish() async {
        await modules.finishDeferredLaunches()
        await modules.send(.terminate)
        runtimePlugins?.finishRun()
    }
}

/// How a run ends when it is interrupted: the plugins it loaded are told, trusting the versions on trial only
/// when the App had started (an interrupt while loading says nothing about a version, good or bad).
final class RunEnd: Sendable {
    private let state = Mutex<(plugins: RuntimePluginManager?, started: Bool)>((nil, false))

    /// The runtime plugins of this run, once there are any.
    var runtimePlugins: RuntimePluginManager? {
        get { state.withLock { $0.plugins } }
        set { state.withLock { $0.plugins = newValue } }
    }

    /// The App is up: its first screen is on its way.
    func started() { state.withLock { $0.started = true } }

    /// The run is ending on an interrupt.
    func interrupted() {
        let (plugins, started) = state.withLock { ($0.plugins, $0.started) }
        plugins?.finishRun(trusting: started)
    }
}

/// The extension points and plugins an app links and the declaration of which point gets which.
public struct AppPlugins: Sendable {
    /// The extension points.
    public var points: [any ExtensionPoint.Type]
    /// The plugin definitions.
    public var definitions: [any PluginDefinition.Type]
    /// The declaration, entry by entry.
    public var declarations: [PluginDeclaration]

    /// Creates a wiring (each app's generated definition does; tests give their own).
    public init(points: [any ExtensionPoint.Type], definitions: [any PluginDefinition.Type], declarations: [PluginDeclaration]) {
        self.points = points
        self.definitions = definitions
        self.declarations = declarations
    }
}

/// The screens the shell itself owns: what opens when no component does.
enum ShellScreens {
    static func notFound(_ url: String) -> Screen {
        var screen = Screen(title: "Page not found")
        screen.text("Nothing in the app opens '\(url)'.")
        screen.link("Home", "shop://home")
        return screen
    }

    static func webPage(_ url: String) -> Screen {
        var screen = Screen(title: "Web page")
        screen.text("The web container shows \(url)")
        screen.text("(a terminal has no browser; a phone would show the page here)")
        screen.link("Home", "shop://home")
        return screen
    }

    static func unavailable(_ url: String, module: String) -> Screen {
        var screen = Screen(title: "Temporarily unavailable")
        screen.text("'\(url)' belongs to \(module), which is not working right now. Please try again later.")
        screen.link("Home", "shop://home")
        return screen
    }
}

/// The routes of a disabled module: they answer "temporarily unavailable" (or what the degrade table says,
/// which applies to them as to any route), never "page not found".
enum Unavailable {
    static func register(_ module: String, reason: String, patterns: [String], on router: Router) {
        for pattern in patterns {
            // A pattern with a parameter type of the module's own cannot be parsed now; its links stay unmatched.
            try? router.register(pattern, owner: module) { request in ShellScreens.unavailable(request.url.original, module: module) }
        }
    }
}
