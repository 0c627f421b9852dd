import Foundation
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
    /// Whether the App is in the foreground.
    let presence = Presence()
    /// The app's first screen, the shell's own screens link to it; nil: the list of its routes.
    let start: String?

    /// Opens the database, installs the app's plugins (throws ``PluginConfigurationError`` for a wrong
    /// declaration), registers every module in dependency order, loads the runtime plugins and announces
    /// `launch` with `options`, waiting only for the launch work that comes before the first screen.
    static func boot(
        environment: AppEnvironment, app: AppDefinition, launch options: LaunchOptions, logger: Logger, profile: StartupProfile,
        progress: @escaping @Sendable (String) -> Void, run: RunEnd
    ) async throws -> Bootstrap {
        let observer = AppObserver(logger: logger)
        var runtimePlugins: RuntimePluginManager?
        do {
            runtimePlugins = try AppRuntimePlugins.manager(
                environment: environment, product: app.product, versions: app.hostAPI, keys: app.hostKeys, logger: logger, progress: progress)
            run.runtimePlugins = runtimePlugins
        } catch {
            logger.warning("runtime plugins are off in this start: \(error)")
        }
        // Their signatures and hashes are checked while the database opens and the modules register.
        runtimePlugins?.checkAhead()
        let plugins = app.plugins
        let path = environment.databasePath
        let storage: Storage
        do {
            storage = try profile.measure("open the database") { try Storage(path: path) }
        } catch let error as StorageError {
            throw AppSettingError("\(error) \(environment.name(.dataFolder)) names the folder.")
        }
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
            // Modules read the documents served for them (a layout, say) by name.
            try router.services.register((any RemoteDocuments).self, owner: "app", instance: remote)
        }
        let settings = try ShellSettings(environment: environment, app: app, remote: remote, storage: storage)
        let notFound = AbsentFeatures.fallback(app.absent, app: app.name, home: app.start) { request in
            settings.webFallback(for: request.url) ?? ShellScreens.notFound(request.url.original, home: app.start)
        }
        let lateModules = AppRuntimePlugins.LateModuleManager()
        router.setFallback(
            runtimePlugins.map { AppRuntimePlugins.onDemandFallback($0, router: router, modules: lateModules, home: app.start, fallback: notFound) } ?? notFound
        )
        router.setWebContainer { request in ShellScreens.webPage(request.url.original, home: app.start) }
        router.setExternalLinkVerifier(settings.linkVerifier)
        router.setDegradeTable(settings.degradeTable)
        if logger.logLevel <= .info { try router.addInterceptor(LoggingInterceptor(logger: logger)) }

        let context = ModuleContext(router: router, settings: environment.moduleSettings(app))
        let manager = try ModuleManager(
            modules: try FaultInjection.apply(environment, to: app.modules() + router.plugins.modules()), context: context,
            absent: Set(app.absent.map(\.component))
        ) { report in
            observer.modules(report)
            if case .disabled(let module, _, let withdrawn) = report {
                Unavailable.register(module, withdrawn: withdrawn, declared: app.routes[module] ?? [], on: router, home: app.start)
            }
        }
        lateModules.manager = manager
        profile.measure("register the modules") { manager.registerAll() }
        // Runtime plugins load after the linked modules: a plugin can never take a route the App owns.
        let loaded = profile.measure("load the runtime plugins") { runtimePlugins?.loadInstalled(into: router, settings: environment.values) ?? [] }
        // One by one: a module the manager refuses leaves the others hearing their events.
        for module in loaded {
            do {
                try manager.adopt([module])
            } catch {
                logger.warning("runtime plugin module \(module.name) hears no lifecycle events: \(error)")
            }
        }
        for rule in settings.degradeTable.unmatchedRules(among: router.routes) {
            logger.warning("degrade rule matches no route", metadata: ["pattern": "\(rule.pattern)", "source": "\(settings.degradeSource)"])
        }
        await profile.measure("launch the modules (before the first screen)") { await manager.launch(options) }
        return Bootstrap(
            router: router, modules: manager, databasePath: path, runtimePlugins: runtimePlugins, profile: profile, observer: observer, remote: remote,
            start: app.start)
    }

    /// The App comes to the foreground: the remote configuration is asked again (not at the shell's start,
    /// which fetched it a moment ago), a new degrade table applies at once, and the modules hear
    /// `foreground` (a module may read what changed).
    func comeToForeground(environment: AppEnvironment, app: AppDefinition, refreshing: Bool = true) async {
        presence.enterForeground()
        if let remote, refreshing {
            await remote.refresh()
            if let (table, _) = try? environment.degradeTable(app, remote: remote) { router.setDegradeTable(table) }
        }
        await modules.send(.foreground)
    }

    /// The screen `url` opens. A module disabled while its screen was opening (its launch work failed
    /// meanwhile) shows "temporarily unavailable", as its routes do from then on; so does a screen (of a
    /// runtime plugin, say) that needs a service of a module that is disabled.
    func screen(_ url: String, origin: RouteOrigin = .inApp, signatureChecked: Bool = false) async throws -> Screen {
        do {
            return try await router.open(url, as: Screen.self, origin: origin, signatureChecked: signatureChecked)
        } catch let error as RouterError where error.code == .unknownService || error.code == .moduleDisabled {
            guard let owner = (try? router.lookup(url))?.owner, modules.statuses.contains(where: { $0.state != .running }) else { throw error }
            return ShellScreens.unavailable(url, module: owner, home: start)
        } catch  where !(error is RouterError) {
            guard let owner = (try? router.lookup(url))?.owner, isDisabled(owner) else { throw error }
            return ShellScreens.unavailable(url, module: owner, home: start)
        }
    }

    /// Whether `owner` (of a route, a service) is a module of the app that is disabled.
    func isDisabled(_ owner: String) -> Bool {
        modules.statuses.contains { $0.name == owner && $0.state != .running }
    }

    /// The App goes to the background: the modules hear `background`, unless it is there already (or
    /// never came to the foreground, as in a one-shot command).
    func goToBackground() async {
        guard presence.leaveForeground() else { return }
        await modules.send(.background)
    }

    /// Ends a run that is interrupted (Ctrl-C, a stop request): the App goes to the background, then the
    /// modules hear `terminate`, as on a phone that closes the app; launch work still running is not waited for.
    func endOnInterrupt() async {
        await goToBackground()
        await modules.send(.terminate)
    }

    /// Ends the run cleanly: waits for launch work still running, modules hear `terminate`, and the runtime
    /// plugins on trial that loaded have now run once (a run that never gets here is counted as a crash).
    public func finish() async {
        await modules.finishDeferredLaunches()
        await modules.send(.terminate)
        runtimePlugins?.finishRun()
    }
}

/// Whether the App is in the foreground: so that `background` is sent once, however the App gets there.
final class Presence: Sendable {
    private let inForeground = Mutex(false)

    /// The App is shown.
    func enterForeground() { inForeground.withLock { $0 = true } }

    /// The App leaves the foreground; false when it was not in it.
    func leaveForeground() -> Bool {
        inForeground.withLock { state in
            defer { state = false }; return state
        }
    }
}

/// How a run ends when it is interrupted: the booted App ends as on a phone that closes it (within a few
/// seconds), then the plugins it loaded are told, trusting the versions on trial only when the App had
/// started (an interrupt while loading says nothing about a version, good or bad).
final class RunEnd: Sendable {
    private let state = Mutex<(plugins: RuntimePluginManager?, app: Bootstrap?)>((nil, nil))

    /// The runtime plugins of this run, once there are any.
    var runtimePlugins: RuntimePluginManager? {
        get { state.withLock { $0.plugins } }
        set { state.withLock { $0.plugins = newValue } }
    }

    /// The App is up: its first screen is on its way.
    func started(_ app: Bootstrap) { state.withLock { $0.app = app } }

    /// The run is ending on an interrupt.
    func interrupted() {
        let (plugins, app) = state.withLock { ($0.plugins, $0.app) }
        if let app {
            // The signal's queue waits; the modules' work runs on the tasks' threads. A module that
            // hangs does not keep the App from ending.
            let ended = DispatchSemaphore(value: 0)
            Task {
                await app.endOnInterrupt()
                ended.signal()
            }
            _ = ended.wait(timeout: .now() + 3)
        }
        plugins?.finishRun(trusting: app != nil)
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

/// The screens the shell itself owns: what opens when no component does. Each links to the app's start
/// (`home`), when it has one.
enum ShellScreens {
    static func notFound(_ url: String, home: String?) -> Screen {
        var screen = Screen(title: "Page not found")
        screen.text("Nothing in the app opens '\(url)'.")
        return linkingHome(screen, home)
    }

    static func webPage(_ url: String, home: String?) -> Screen {
        var screen = Screen(title: "Web page")
        screen.text("The web container shows \(url)")
        screen.text("(a terminal has no browser; a phone would show the page here)")
        return linkingHome(screen, home)
    }

    static func unavailable(_ url: String, module: String, home: String?) -> Screen {
        var screen = Screen(title: "Temporarily unavailable")
        screen.text("'\(url)' belongs to \(module), which is not working right now. Please try again later.")
        return linkingHome(screen, home)
    }

    /// The first screen of an app without a start route: its routes that take no parameter, as links.
    static func routeList(_ routes: [RouteDescription], app: String) -> Screen {
        var screen = Screen(title: "App '\(app)'")
        screen.text("No start screen: components.yaml's workspace.start names the route every app opens first.")
        let openable = Set(routes.map(\.pattern)).filter { pattern in
            let path = pattern.components(separatedBy: "://").dropFirst().joined()
            return !path.split(separator: "/").contains { $0.hasPrefix(":") || $0.hasPrefix("*") || $0.hasPrefix("<") }
        }
        if openable.isEmpty { screen.text("It has no route yet: add a feature with 'componentctl new'.") }
        for pattern in openable.sorted() { screen.link(pattern, pattern) }
        return screen
    }

    /// `screen` with a link to the app's start, when it has one.
    static func linkingHome(_ screen: Screen, _ home: String?) -> Screen {
        guard let home else { return screen }
        var screen = screen
        screen.link("Home", home)
        return screen
    }
}

/// The routes of a disabled module: they answer "temporarily unavailable" (or what the degrade table says,
/// which applies to them as to any route), never "page not found". A route it had registered keeps its
/// options (public or not, labels), so a deep link is refused or let in as before; a declared route it never
/// got to register stays private.
enum Unavailable {
    static func register(_ module: String, withdrawn: [RouteDescription], declared: [String], on router: Router, home: String?) {
        let options = Dictionary(withdrawn.map { ($0.pattern, RouteOptions(isPublic: $0.isPublic, labels: Set($0.labels))) }, uniquingKeysWith: { a, _ in a })
        for pattern in withdrawn.map(\.pattern) + declared.filter({ options[$0] == nil }) {
            // A pattern with a parameter type of the module's own cannot be parsed now; its links stay unmatched.
            try? router.register(pattern, owner: module, options: options[pattern] ?? RouteOptions()) { request in
                ShellScreens.unavailable(request.url.original, module: module, home: home)
            }
        }
    }
}
