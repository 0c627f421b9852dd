import Foundation
import Glibc
import PluginFeed

/// What an install did.
public struct InstallResult: Sendable, Equatable {
    /// How the store changed.
    public enum Change: Sendable, Equatable {
        /// The plugin was not installed (or nothing of it loads): this version loads at the next start.
        case installed
        /// Another version is installed: this one loads at the next start instead, and the installed
        /// one stays until this one has run once.
        case waiting
        /// That version is what the next start loads already: nothing was downloaded.
        case unchanged
        /// That version loads now and an update (this one) was waiting: the update is dropped, nothing downloaded.
        case updateDropped(String)
    }

    /// The plugin's id.
    public var id: String
    /// The version.
    public var version: String
    /// How the store changed.
    public var change: Change

    /// Creates a result.
    public init(id: String, version: String, change: Change) {
        self.id = id
        self.version = version
        self.change = change
    }
}

/// What an update said of one installed plugin.
public enum UpdateResult: Sendable, Equatable {
    /// `id` moves from one version to another at the next start.
    case updated(id: String, from: String?, to: String)
    /// `id` was installed by version; only `update ID` moves it.
    case held(id: String, version: String)
    /// No version of `id` in the feed can load in this App; `reason` says why for the newest.
    case noFit(id: String, reason: String)
}

extension RuntimePluginManager {
    /// Installs `id` (`version`, or the newest compatible one): downloaded, verified, stored. A plugin not
    /// installed yet is current at once; otherwise the version waits as the update the next start loads.
    /// Going back to an older version needs `version` named, and holds the plugin there.
    @discardableResult
    public func install(_ id: String, version: String? = nil) async throws -> InstallResult {
        try await install(id, version: version, from: try await fetchIndex())
    }

    /// Installs `id` from `index`, and records the index's sequence with it.
    func install(_ id: String, version: String?, from index: FeedIndex, hold: Bool? = nil) async throws -> InstallResult {
        let hold = hold ?? (version != nil)
        let installed = try store.readState().plugins[id]
        let release = try choose(id, version: version, in: index, installed: installed)
        let intact = store.isIntact(id, release.version, keys: configuration.keys)
        // Installed already, with its files whole: nothing to download.
        if let installed, intact, installed.candidate == release.version || installed.current == release.version {
            return try store.change { state in
                try record(index, in: &state)
                guard var entry = state.plugins[id] else { return InstallResult(id: id, version: release.version, change: .unchanged) }
                let dropped = entry.current == release.version ? entry.pending : nil
                entry.pending = entry.current == release.version ? nil : entry.pending
                entry.held = hold
                state.plugins[id] = entry
                return InstallResult(id: id, version: release.version, change: dropped.map { .updateDropped($0) } ?? .unchanged)
            }
        }
        let plugin = try await download(release)
        return try store.change { state in
            try record(index, in: &state)
            var entry = state.plugins[id] ?? StoreState.Plugin()
            // Another install of the same version committed while this one downloaded: its files stay.
            if entry.candidate == release.version, store.isIntact(id, release.version, keys: configuration.keys) {
                state.plugins[id]?.held = hold
                return InstallResult(id: id, version: release.version, change: .unchanged)
            }
            try store.add(plugin)
            // Installing the version that loads again repairs its files: a hold stays as it was.
            let repair = entry.current == release.version
            let change: InstallResult.Change
            if entry.current == nil {
                entry.current = release.version
                entry.pending = nil
                entry.trial = StoreState.Trial(version: release.version)
                change = .installed
            } else if entry.current == release.version {
                // Its files were damaged and are whole again; whether it is on trial stays as it was.
                entry.pending = nil
                change = .installed
            } else {
                entry.pending = release.version
                change = .waiting
            }
            entry.bad.removeAll { $0 == release.version }
            entry.held = repair ? entry.held : hold
            state.plugins[id] = entry
            return InstallResult(id: id, version: release.version, change: change)
        }
    }

    /// Updates `id`, or every installed plugin: the newest compatible version above the one the next
    /// start loads (any compatible version when none loads). Without `id`, a plugin held at a version
    /// stays; naming it moves it and ends the hold. Says nothing of plugins already up to date.
    public func update(_ id: String? = nil) async throws -> [UpdateResult] {
        let state = try store.readState()
        if let id, state.plugins[id] == nil { throw FeedError("'\(id)' is not installed. Install it: \(configuration.command) install \(id)") }
        if state.plugins.isEmpty { return [] }
        let index = try await fetchIndex()
        var results: [UpdateResult] = []
        let named = id
        for id in named.map({ [$0] }) ?? state.plugins.keys.sorted() {
            guard let entry = state.plugins[id] else { continue }
            let from = entry.candidate
            if named == nil, entry.held, let from {
                results.append(.held(id: id, version: from))
                continue
            }
            let releases = index.releases(id)
            let newer = releases.first { release in
                guard !entry.bad.contains(release.version), incompatibility(of: release) == nil else { return false }
                guard let from else { return true }
                guard let version = PluginVersion(release.version), let installed = PluginVersion(from) else { return false }
                return version > installed
            }
            if let newer {
                _ = try await install(id, version: newer.version, from: index, hold: false)
                results.append(.updated(id: id, from: from, to: newer.version))
            } else if from == nil {
                let reason =
                    releases.first.map { newest in incompatibility(of: newest).map { "\(newest.version) is \($0)" } ?? "every version is marked bad" }
                    ?? "the feed has no version of it"
                results.append(.noFit(id: id, reason: reason))
            }
        }
        // Seen, even when nothing changed: an older index replayed later is refused.
        try store.change { state in try record(index, in: &state) }
        return results
    }

    /// Uninstalls `id`; a loaded copy stays in this process until it exits.
    public func remove(_ id: String) throws {
        try store.change { state in
            guard state.plugins.removeValue(forKey: id) != nil else {
                throw FeedError("'\(id)' is not installed; '\(configuration.command) list' shows what is")
            }
        }
    }

    private func choose(_ id: String, version: String?, in index: FeedIndex, installed: StoreState.Plugin?) throws -> FeedIndex.Release {
        let releases = index.releases(id)
        guard !releases.isEmpty else {
            let known = index.plugins.keys.sorted()
            throw FeedError("the feed has no plugin '\(id)'" + (known.isEmpty ? "" : "; it has \(FeedError.list(known))"))
        }
        guard let version else {
            guard let release = releases.first(where: { incompatibility(of: $0) == nil && !(installed?.bad.contains($0.version) ?? false) }) else {
                throw FeedError(
                    "no version of '\(id)' in the feed fits this App: "
                        + (releases.first.flatMap(incompatibility(of:)).map { "\(releases[0].version) is \($0)" } ?? "all are marked bad"))
            }
            if let current = installed?.current, let have = PluginVersion(current), let offered = PluginVersion(release.version), offered < have {
                throw FeedError(
                    "the feed's newest fitting version of '\(id)' is \(release.version), older than the installed \(current). "
                        + "To go back to it, ask for it: \(configuration.command) install \(id)@\(release.version)")
            }
            return release
        }
        guard let release = releases.first(where: { $0.version == version }) else {
            throw FeedError("the feed has no version \(version) of '\(id)'; it has \(FeedError.list(releases.map(\.version)))")
        }
        if let reason = incompatibility(of: release) { throw FeedError("\(id) \(version) cannot load in this App: it was \(reason)") }
        return release
    }

    private func download(_ release: FeedIndex.Release) async throws -> VerifiedPlugin {
        let feed = try feedURL()
        guard release.size <= configuration.archiveLimit else {
            throw FeedError("\(release.manifest.id) \(release.version) is \(release.size) bytes, more than the \(configuration.archiveLimit) the App accepts")
        }
        var client = FeedClient(feed: feed, timeout: configuration.timeout)
        client.minimumRate = configuration.minimumRate
        let name = "\(release.manifest.id) \(release.version)"
        let progress = self.progress
        client.progress = { received, total in progress(name, received, total) }
        // A file of this process's own, locked while it grows: two installs at once never share one,
        // and the store removes only files nobody holds (left by a killed install).
        let part = try store.downloadFile(named: release.sha256)
        defer { part.discard() }
        store.checkpoint("download")
        try await client.download(release.archive, to: part.url, expected: release.size, limit: configuration.archiveLimit)
        let data = try Data(contentsOf: part.url)
        guard data.count == release.size, Digest.sha256(data) == release.sha256 else {
            throw FeedError("the archive of \(name) is not the one the signed index describes (its size or SHA-256 differs): refused")
        }
        let plugin = try VerifiedPlugin(archive: data, keys: configuration.keys)
        guard plugin.manifest == release.manifest else { throw FeedError("the archive's manifest of \(name) is not the one the signed index lists: refused") }
        report("Downloaded and verified \(name) (\(max(1, data.count / 1024)) KB)\n")
        store.checkpoint("verified")
        return plugin
    }
}
