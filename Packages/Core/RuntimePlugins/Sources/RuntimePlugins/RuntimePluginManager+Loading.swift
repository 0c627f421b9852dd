import Foundation
import PluginFeed
public import Router

extension RuntimePluginManager {
    /// Loads every installed plugin into `router` and returns their modules (for lifecycle events). Never
    /// throws: a plugin that cannot load is reported and left out, and the App goes on.
    ///
    /// An update waiting is tried first; if it fails to load, or a start finds that loading it crashed
    /// the App twice, it is marked bad and the version before it loads instead. A version loads only
    /// after its signature and hash are checked again.
    public func loadInstalled(into router: Router, settings: [String: String] = [:]) -> [any AppModule] {
        guard FileManager.default.fileExists(atPath: store.stateURL.path) else { return [] }
        let plan: [(id: String, tries: [String])]
        do {
            plan = try store.change { state in
                state.plugins.keys.sorted().compactMap { id in
                    guard var entry = state.plugins[id] else { return nil }
                    if let attempt = entry.attempt, attempt.count >= 2 {
                        report("warning: plugin \(id) \(attempt.version) crashed the App twice while loading; it is marked bad and left out\n")
                        markBad(attempt.version, in: &entry)
                    }
                    var tries = [entry.pending, entry.current].compactMap { $0 }
                    if tries.count == 2, tries[0] == tries[1] { tries.removeLast() }
                    if let first = tries.first {
                        entry.attempt = StoreState.Attempt(version: first, count: entry.attempt?.version == first ? (entry.attempt?.count ?? 0) + 1 : 1)
                    }
                    state.plugins[id] = entry
                    return tries.isEmpty ? nil : (id, tries)
                }
            }
        } catch {
            report("warning: runtime plugins are left out: \(error)\n")
            return []
        }
        var modules: [any AppModule] = []
        var outcome: [String: (loaded: String?, failed: [String])] = [:]
        for (id, tries) in plan {
            var failed: [String] = []
            for version in tries {
                do {
                    if let module = try load(id, version, into: router, settings: settings) { modules.append(module) }
                    outcome[id] = (version, failed)
                    break
                } catch let refusal as Incompatible {
                    report("warning: plugin \(id) \(version) is left out: \(refusal.reason). Run 'App plugins update \(id)'.\n")
                    outcome[id] = (nil, failed)
                } catch {
                    report("warning: plugin \(id) \(version) failed to load and is marked bad: \(error)\n")
                    failed.append(version)
                    outcome[id] = (nil, failed)
                }
            }
        }
        do {
            try store.change { state in
                for (id, result) in outcome {
                    guard var entry = state.plugins[id] else { continue }
                    for version in result.failed { markBad(version, in: &entry) }
                    if let loaded = result.loaded, loaded == entry.pending {
                        entry.current = loaded
                        entry.pending = nil
                    }
                    entry.attempt = nil
                    state.plugins[id] = entry
                }
            }
        } catch {
            report("warning: the plugin store could not record this start: \(error)\n")
        }
        return modules
    }

    /// Loads `id` at `version` now (after an install); returns its module.
    public func loadNow(_ id: String, into router: Router, settings: [String: String] = [:]) throws -> (any AppModule)? {
        guard let version = try store.readState().plugins[id]?.current else { throw FeedError("'\(id)' is not installed") }
        return try load(id, version, into: router, settings: settings)
    }

    /// A plugin of the feed that declares a link, and the index that says so.
    public struct FeedMatch: Sendable {
        /// The plugin's id.
        public let id: String
        let index: FeedIndex
    }

    /// The plugin of the feed whose declared routes match `url` and that is not installed, if any.
    public func feedPlugin(opening url: String) async throws -> FeedMatch? {
        let index = try await fetchIndex()
        let installed = try store.readState().plugins
        for id in index.plugins.keys.sorted() where installed[id]?.current == nil {
            let fitting = index.releases(id).first { $0.manifest.incompatibility(hostAPI: host.versions, swiftRuntime: host.swiftRuntime) == nil }
            if let fitting, Self.routes(fitting.manifest.routes, match: url) { return FeedMatch(id: id, index: index) }
        }
        return nil
    }

    /// Installs the plugin `match` names, from the index it was found in; returns the version.
    public func install(_ match: FeedMatch) async throws -> String {
        try await install(match.id, version: nil, from: match.index)
    }

    /// The installed plugin (its version that loads) whose declared routes match `url`, if any: one
    /// installed while this process ran, so not loaded yet.
    public func installedPlugin(opening url: String) throws -> String? {
        for (id, entry) in try store.readState().plugins.sorted(by: { $0.key < $1.key }) {
            guard let version = entry.current, let manifest = try? store.installed(id, version, keys: configuration.keys).manifest else { continue }
            if Self.routes(manifest.routes, match: url) { return id }
        }
        return nil
    }

    private static func routes(_ patterns: [String], match url: String) -> Bool {
        let probe = Router()
        for pattern in patterns { try? probe.register(pattern, owner: "probe") { _ in nil } }
        return (try? probe.lookup(url)) != nil
    }

    private func load(_ id: String, _ version: String, into router: Router, settings: [String: String]) throws -> (any AppModule)? {
        // A key this configuration does not hold says nothing about the plugin (it may be another
        // configuration's): left out, never marked bad and deleted.
        let signature = store.versionFolder(id, version).appendingPathComponent(PluginArchive.signatureName)
        if let data = FileManager.default.contents(atPath: signature.path), !configuration.keys.holdsSigner(of: data) {
            throw Incompatible(reason: "it is signed by a key this App's plugin configuration does not trust")
        }
        let (manifest, library) = try store.installed(id, version, keys: configuration.keys)
        if let reason = manifest.incompatibility(hostAPI: host.versions, swiftRuntime: host.swiftRuntime) { throw Incompatible(reason: reason) }
        store.checkpoint("load \(id) \(version)")
        return try PluginLoader.load(manifest, library: library.path, router: router, settings: settings).module
    }

    private func markBad(_ version: String, in entry: inout StoreState.Plugin) {
        if !entry.bad.contains(version) { entry.bad.append(version) }
        if entry.pending == version { entry.pending = nil }
        if entry.current == version { entry.current = nil }
        if entry.attempt?.version == version { entry.attempt = nil }
    }
}

/// A plugin built for another App: left out, not marked bad (an update of the plugin fixes it).
struct Incompatible: Error {
    var reason: String
}
