import Foundation
import Logging
import PluginFeed
import RuntimePlugins

/// `<app> plugins ...`: the runtime plugins this App installed, the feed's, and changes to them.
struct PluginsCommand {
    let runner: AppRunner
    let logger: Logger

    static let usage = "'plugins' takes list, available, install ID[@VERSION], update [ID] or remove ID"

    /// What `plugins` is asked to do, parsed by ``AppCommandLine/Plugins``.
    enum Action: Equatable {
        case list, available
        case install(String)
        case update(String?)
        case remove(String)

        /// Whether it asks the feed (and so loads the HTTP library).
        var asksTheFeed: Bool {
            switch self {
            case .available, .install, .update: true
            case .list, .remove: false
            }
        }
    }

    /// Runs `action`: done, refused or failed, or a usage error.
    func run(_ action: Action) async -> AppExit {
        if action.asksTheFeed {
            // Loading the HTTP library overlaps with reading the configuration and the host.
            FeedClient.preload()
        }
        let manager: RuntimePluginManager
        do {
            manager = try AppRuntimePlugins.manager(
                environment: runner.settings, product: runner.app.product, versions: runner.app.hostAPI, keys: runner.app.hostKeys, logger: logger,
                progress: runner.errorOutput)
        } catch {
            runner.errorOutput("error: \(error)\n")
            return .usage
        }
        do {
            switch action {
            case .list: try list(manager)
            case .available: try await available(manager)
            case .install(let plugin):
                let parts = plugin.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard let id = parts.first, PluginID.isValid(id), parts.count == 1 || PluginVersion(parts[1]) != nil else {
                    return usage("install takes a plugin id and optionally @VERSION, like banner or banner@1.2.0")
                }
                let result = try await manager.install(id, version: parts.count == 2 ? parts[1] : nil)
                runner.output(Self.describe(result))
            case .update(let id):
                if let id, !PluginID.isValid(id) { return usage("update takes a plugin id, like banner, or none for every installed plugin") }
                guard try id != nil || !manager.installed().isEmpty else {
                    runner.output("No runtime plugins are installed. '\(runner.app.product) plugins available' lists the feed's.\n")
                    return .ok
                }
                let results = try await manager.update(id)
                runner.output(results.isEmpty ? "Everything is up to date.\n" : results.map(describe).joined())
            case .remove(let id):
                guard PluginID.isValid(id) else {
                    return usage("remove takes a plugin id, like banner ('\(runner.app.product) plugins list' shows them)")
                }
                try manager.remove(id)
                runner.output("Removed \(id).\n")
            }
            return .ok
        } catch {
            runner.errorOutput("error: \(error)\n")
            return .failed
        }
    }

    private func list(_ manager: RuntimePluginManager) throws {
        let installed = try manager.installed()
        guard !installed.isEmpty else {
            return runner.output("No runtime plugins are installed. '\(runner.app.product) plugins available' lists the feed's.\n")
        }
        for plugin in installed {
            var line = "\(plugin.id) \(plugin.current ?? "(none loads)")"
            if let pending = plugin.pending {
                let back = PluginVersion(pending).flatMap { pending in plugin.current.flatMap(PluginVersion.init).map { pending < $0 } } ?? false
                line += back ? ", back to \(pending) at the next start" : ", update to \(pending) loads at the next start"
            }
            if plugin.held { line += ", held (installed by version; '\(runner.app.product) plugins update \(plugin.id)' moves it)" }
            if !plugin.bad.isEmpty { line += ", marked bad: \(plugin.bad.joined(separator: ", "))" }
            runner.output(line + "\n")
        }
    }

    private func available(_ manager: RuntimePluginManager) async throws {
        let installed = Dictionary(try manager.installed().map { ($0.id, $0.current) }, uniquingKeysWith: { first, _ in first })
        let releases = try await manager.available()
        guard !releases.isEmpty else { return runner.output("The feed has no plugins.\n") }
        for (release, problem) in releases {
            let state = installed[release.manifest.id] == release.version ? "installed" : problem ?? "installable"
            runner.output("\(release.manifest.id) \(release.version) (\(max(1, release.size / 1024)) KB): \(state)\n")
        }
    }

    static func describe(_ result: InstallResult) -> String {
        switch result.change {
        case .installed: "Installed \(result.id) \(result.version); it loads at the next start.\n"
        case .waiting: "Installed \(result.id) \(result.version); it loads at the next start (the installed version stays until it has run once).\n"
        case .unchanged: "\(result.id) \(result.version) is installed already.\n"
        case .updateDropped(let pending):
            "\(result.id) \(result.version) is installed already; the update to \(pending) waiting for the next start is dropped.\n"
        }
    }

    func describe(_ result: UpdateResult) -> String {
        switch result {
        case .updated(let id, let from, let to): "Updated \(id) \(from ?? "(none loaded)") -> \(to); it loads at the next start.\n"
        case .held(let id, let version): "\(id) stays at \(version): it was installed by version. '\(runner.app.product) plugins update \(id)' moves it.\n"
        case .noFit(let id, let reason): "\(id): no version in the feed can load in this App (\(reason)).\n"
        }
    }

    private func usage(_ message: String) -> AppExit {
        runner.usage(message)
    }
}
