import Foundation
import Glibc
import Logging
import PluginFeed
import Router
import RuntimePlugins
import ScreenKit
import Storage
import Synchronization

/// The App's runtime plugins: where they are stored, which feed and keys it trusts, and how a link to an
/// uninstalled plugin installs it first ("download on first tap").
enum AppRuntimePlugins {
    /// The manager for `environment`: the store beside the database, the feed from PLUGIN_FEED or the
    /// configuration, the public keys from the configuration only (PLUGIN_CONFIG, else the bundled
    /// plugin-feed.json).
    static func manager(
        environment: AppEnvironment, product: String, versions: [String: String], keys: [String: String], logger: Logger,
        progress: @escaping @Sendable (String) -> Void
    ) throws
        -> RuntimePluginManager
    {
        // The manager's lines are warnings ("warning: ...") for the log, or progress for the person waiting.
        let report: @Sendable (String) -> Void = { line in
            if line.hasPrefix("warning: ") {
                logger.warning("\(line.dropFirst("warning: ".count).trimmingCharacters(in: .newlines))")
            } else {
                progress(line)
            }
        }
        var configuration = try feedConfiguration(environment: environment)
        configuration.command = "\(product) plugins"
        let dataFolder = URL(fileURLWithPath: environment.databasePath).deletingLastPathComponent()
        let killAt = environment[.pluginKillAt] ?? ""
        let store = PluginStore(folder: dataFolder.appendingPathComponent("plugins")) { step in
            // Fault injection for the kill tests: the process dies at a named step, as if killed there.
            if !killAt.isEmpty, step.hasPrefix(killAt) { kill(getpid(), SIGKILL) }
        }
        let host = try HostAPI.current(versions: versions, keys: keys)
        var manager = RuntimePluginManager(store: store, configuration: configuration, host: host, report: report)
        manager.progress = progressPrinter()
        return manager
    }

    /// The bundled or given configuration: `{"feed": URL or null, "keys": [base64 public keys], "timeout": seconds}`.
    static func feedConfiguration(environment: AppEnvironment) throws -> FeedConfiguration {
        struct File: Decodable {
            var feed: String?
            var keys: [String]
            var timeout: Double?
        }
        let source: URL
        if let path = environment[.pluginConfig] {
            source = URL(fileURLWithPath: path)
        } else if let bundled = Bundle.module.url(forResource: "plugin-feed", withExtension: "json") {
            source = bundled
        } else {
            throw FeedError("the bundled plugin-feed.json is missing from the build")
        }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw FeedError("the plugin configuration \(source.path) cannot be read (\(environment.name(.pluginConfig)) names a JSON file)")
        }
        let file: File = try FeedJSON.decode(data, what: "the plugin configuration \(source.path)")
        let feedText = environment[.pluginFeed] ?? file.feed
        var feed: URL?
        if let feedText {
            guard let url = URL(string: feedText), ["http", "https", "file"].contains(url.scheme ?? ""), url.scheme == "file" || !(url.host ?? "").isEmpty,
                url.query == nil, url.fragment == nil
            else {
                throw FeedError("the plugin feed '\(feedText)' is no http://, https:// or file:// URL of a folder (like http://plugins.example/feed/)")
            }
            feed = url
        }
        var configuration = FeedConfiguration(feed: feed, keys: try TrustedKeys(file.keys))
        configuration.feedSetting = environment.name(.pluginFeed)
        for (value, source) in [
            (environment[.pluginTimeout], environment.name(.pluginTimeout)), (file.timeout.map { "\($0)" }, "the \"timeout\" of \(source.path)"),
        ] {
            guard let value, !value.isEmpty else { continue }
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw FeedError("\(source) is '\(value)'; it takes the seconds a download may stall, a number above 0 and at most 3600")
            }
            configuration.timeout = seconds
            break
        }
        return configuration
    }

    /// Download progress on standard error, on a terminal: a line rewritten in place (elsewhere the manager
    /// says once the archive is downloaded and verified).
    static func progressPrinter() -> @Sendable (String, Int, Int) -> Void {
        let terminal = isatty(STDERR_FILENO) == 1
        return { name, received, total in
            let percent = total > 0 ? received * 100 / total : 100
            if terminal {
                try? FileHandle.standardError.write(
                    contentsOf:
                        Data("\rDownloading \(name): \(percent)% (\(received / 1024) of \(total / 1024) KB)\(received >= total ? "\n" : "")".utf8))
            }
        }
    }

    /// The fallback of an App with runtime plugins: a link that an installed plugin declares loads it (it
    /// was installed after this process started); one that a plugin of the feed declares installs that
    /// plugin first, with progress; then the link opens. Anything else gets `fallback`.
    static func onDemandFallback(
        _ manager: RuntimePluginManager, router: Router, modules: LateModuleManager, home: String?, fallback: @escaping RouteHandler
    ) -> RouteHandler {
        { request in
            let url = request.url.original
            // A link from outside never installs software: only in-app opens reach the feed.
            guard !request.arguments.keys.contains(retryMarker), request.origin == .inApp else { return try await fallback(request) }
            var id = try? manager.installedPlugin(opening: url)
            if id == nil, manager.configuration.feed != nil {
                var match: RuntimePluginManager.FeedMatch?
                do {
                    match = try await manager.feedPlugin(opening: url)
                } catch let unfit as RuntimePluginManager.NoFittingVersion {
                    var screen = Screen(title: "Plugin not installed")
                    screen.text("'\(url)' cannot open: \(unfit). It needs a newer App, or a release of the plugin built for this one.")
                    return ShellScreens.linkingHome(screen, home)
                } catch {
                    manager.report("warning: the plugin feed could not be asked about \(url): \(error)\n")
                }
                id = match?.id
                if let match, let id {
                    manager.report("Installing plugin \(id) to open \(url)...\n")
                    do {
                        let result = try await manager.install(match)
                        manager.report("Installed \(id) \(result.version).\n")
                    } catch {
                        var screen = Screen(title: "Plugin not installed")
                        screen.text("'\(url)' needs the plugin '\(id)', which could not be installed: \(error)")
                        return ShellScreens.linkingHome(screen, home)
                    }
                }
            }
            guard let id else { return try await fallback(request) }
            do {
                if let module = try manager.loadNow(id, into: router), let modules = modules.manager {
                    // Loaded after the start: it hears the events from now on, and launch now if it handles it.
                    try modules.adopt([module])
                    if module.events.contains(.launch) { try await module.handle(.launch(.plain), in: modules.context) }
                }
            } catch {
                manager.report("warning: plugin \(id) could not be loaded: \(error)\n")
                return try await fallback(request)
            }
            return try await router.open(url, arguments: request.arguments.merging([retryMarker: true]) { old, _ in old }, origin: request.origin)
        }
    }

    /// The App's module manager, once the boot has made it (the fallback is set before).
    final class LateModuleManager: Sendable {
        private let reference = Mutex<ModuleManager?>(nil)
        var manager: ModuleManager? {
            get { reference.withLock { $0 } }
            set { reference.withLock { $0 = newValue } }
        }
    }

    /// Marks the second open of a link after its plugin was installed, so a plugin that still does not
    /// register it cannot loop.
    static let retryMarker = "app.runtime-plugin-installed"
}
