import Foundation
public import Router
import RuntimePlugins
import ScreenKit
import Storage

/// Assembles an app: creates the modules its definition lists (generated from components.yaml's `apps:`)
/// and gives them the services they share.
public struct Bootstrap: Sendable {
    /// The router every module registered on.
    public let router: Router
    /// The booted modules, to announce lifecycle events to.
    public let modules: ModuleManager
    /// Where the database lives.
    public let databasePath: String
    /// The runtime plugins, when this start could use them.
    let runtimePlugins: RuntimePluginManager?

    /// Opens the database, installs the app's plugins (throws ``PluginConfigurationError`` for a wrong
    /// declaration), registers every module in dependency order and announces `launch`; `log` gets a line
    /// per routed open when SHOP_LOG is set.
    public static func boot(
        environment: [String: String], app: AppDefinition, log: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> Bootstrap {
        let plugins = app.plugins
        let path = StorageLocation.databasePath(environment: environment)
        let storage = try Storage(path: path)
        let router = Router()
        try router.plugins.install(points: plugins.points, definitions: plugins.definitions, declarations: plugins.declarations)
        // Modules and plugins reach the database as a service: the generated wiring passes them no arguments.
        try router.services.register(Storage.self, owner: "app", instance: storage)
        let notFound = AbsentFeatures.fallback(app.absent, app: app.name, home: app.start ?? AppRunner.homeRoute) { request in
            ShellScreens.notFound(request.url.original)
        }
        var runtimePlugins: RuntimePluginManager?
        do {
            runtimePlugins = try AppRuntimePlugins.manager(environment: environment, versions: app.hostAPI, report: log)
        } catch {
            log("warning: runtime plugins are off in this start: \(error)\n")
        }
        router.setFallback(runtimePlugins.map { AppRuntimePlugins.onDemandFallback($0, router: router, fallback: notFound) } ?? notFound)
        router.setWebContainer { request in ShellScreens.webPage(request.url.original) }
        router.setExternalLinkVerifier(SignedLinkVerifier(signer: try AppSettings.signer(environment: environment)))
        router.setDegradeTable(try AppSettings.degradeTable(environment: environment, app: app))
        if let level = environment["SHOP_LOG"], !level.isEmpty, level != "0" {
            try router.addInterceptor(LoggingInterceptor(log: log))
        }
        let modules = app.modules() + router.plugins.modules()
        let context = ModuleContext(router: router, settings: AppSettings.moduleSettings(environment: environment, app: app))
        try ModuleManager(modules: modules, context: context).registerAll()
        // Runtime plugins load after the linked modules: a plugin can never take a route the App owns.
        let loaded = runtimePlugins?.loadInstalled(into: router, settings: environment) ?? []
        let manager = try ModuleManager(modules: modules + loaded, context: context)
        await manager.send(.launch)
        return Bootstrap(router: router, modules: manager, databasePath: path, runtimePlugins: runtimePlugins)
    }

    /// Ends the run cleanly: modules hear `terminate`, and the runtime plugins on trial that loaded have
    /// now run once (a run that never gets here is counted as a crash).
    public func finish() async {
        await modules.send(.terminate)
        runtimePlugins?.finishRun()
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
}
