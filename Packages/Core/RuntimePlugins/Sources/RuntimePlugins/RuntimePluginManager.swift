public import Foundation
public import PluginFeed
import Router

/// Where plugins come from and who may sign them.
public struct FeedConfiguration: Sendable {
    /// The feed's folder URL (`http://`, `https://`, `file://`), or nil when the App has none.
    public var feed: URL?
    /// The public keys whose signatures the App accepts.
    public var keys: TrustedKeys
    /// Seconds without a byte before a download is given up.
    public var timeout: TimeInterval = 30
    /// The largest archive the App downloads.
    public var archiveLimit = 64 << 20

    /// Creates a configuration.
    public init(feed: URL?, keys: TrustedKeys) {
        self.feed = feed
        self.keys = keys
    }
}

/// Installs, updates, removes and loads the App's runtime plugins.
public struct RuntimePluginManager: Sendable {
    /// The plugins on disk.
    public let store: PluginStore
    /// The feed.
    public let configuration: FeedConfiguration
    /// What the App offers plugins.
    public let host: HostAPI
    /// Hears what happens: progress, a refused or failed plugin (one line each).
    public let report: @Sendable (String) -> Void
    /// Hears download progress: bytes so far and the total.
    public var progress: @Sendable (String, Int, Int) -> Void = { _, _, _ in }

    /// A manager of `store`.
    public init(store: PluginStore, configuration: FeedConfiguration, host: HostAPI, report: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.configuration = configuration
        self.host = host
        self.report = report
    }

    // MARK: Feed

    /// The feed's index, signature checked and never older than one seen before; its sequence is recorded.
    public func index() async throws -> FeedIndex {
        let index = try await fetchIndex()
        try store.change { state in try record(index, in: &state) }
        return index
    }

    /// The feed's index, signature checked and never older than the one the store recorded last.
    func fetchIndex() async throws -> FeedIndex {
        guard let feed = configuration.feed else {
            throw FeedError("the App has no plugin feed: set SHOP_PLUGIN_FEED to its URL (http://, https:// or file://)")
        }
        var client = FeedClient(feed: feed, timeout: configuration.timeout)
        client.attempts = 2
        var index: FeedIndex?
        // Two tries: a publish between the two reads pairs a new index with an old signature.
        for attempt in 0..<2 where index == nil {
            async let fetched = client.data(FeedIndex.fileName, limit: 8 << 20)
            let signature = try await client.data(FeedIndex.signatureName, limit: 64 << 10)
            let data = try await fetched
            do {
                index = try FeedIndex.verified(data, signature: signature, keys: configuration.keys)
            } catch let error as FeedError where attempt == 0 && error.message.contains("does not match") {
                continue
            }
        }
        guard let index else { throw FeedError("the feed's index does not verify") }
        // A replay is refused before anything is downloaded; the sequence is recorded with the change.
        var recorded = try store.readState()
        try record(index, in: &recorded)
        return index
    }

    /// Refuses an index older than the one `state` recorded (a replayed or rolled-back feed), and records it.
    private func record(_ index: FeedIndex, in state: inout StoreState) throws {
        guard index.sequence >= state.feedSequence else {
            throw FeedError(
                "the feed's index is older (sequence \(index.sequence)) than one this App has already seen (sequence \(state.feedSequence)): "
                    + "a replayed or rolled-back feed. Nothing was changed.")
        }
        state.feedSequence = index.sequence
    }

    /// What can be said about each release of the feed: installable, or why not.
    public func available() async throws -> [(release: FeedIndex.Release, problem: String?)] {
        let index = try await index()
        return index.plugins.keys.sorted().flatMap { id in
            index.releases(id).map { ($0, $0.manifest.incompatibility(hostAPI: host.versions, swiftRuntime: host.swiftRuntime)) }
        }
    }

    // MARK: Changes

    /// Installs `id` (`version`, or the newest compatible one): downloaded, verified, stored. A plugin not
    /// installed yet is current at once; otherwise the version waits as the update the next start loads.
    /// Going back to an older version needs `version` named.
    @discardableResult
    public func install(_ id: String, version: String? = nil) async throws -> String {
        try await install(id, version: version, from: try await fetchIndex())
    }

    /// Installs `id` from `index`, and records the index's sequence with it.
    @discardableResult
    func install(_ id: String, version: String?, from index: FeedIndex) async throws -> String {
        let installed = try store.readState().plugins[id]
        let release = try choose(id, version: version, in: index, installed: installed)
        let plugin = try await download(release)
        try store.change { state in
            try record(index, in: &state)
            try store.add(plugin)
            var entry = state.plugins[id] ?? StoreState.Plugin()
            if entry.current == nil || entry.current == release.version {
                entry.current = release.version
                entry.pending = nil
            } else {
                entry.pending = release.version
            }
            entry.bad.removeAll { $0 == release.version }
            if entry.attempt?.version == release.version { entry.attempt = nil }
            state.plugins[id] = entry
        }
        return release.version
    }

    /// Updates `id`, or every installed plugin: the newest compatible version above the installed one.
    /// Returns what was updated, as "id old -> new".
    public func update(_ id: String? = nil) async throws -> [String] {
        let state = try store.readState()
        let ids = id.map { [$0] } ?? state.plugins.keys.sorted()
        if let id, state.plugins[id] == nil { throw FeedError("'\(id)' is not installed. Install it: App plugins install \(id)") }
        let index = try await index()
        var updated: [String] = []
        for id in ids {
            guard let entry = state.plugins[id], let from = entry.candidate ?? entry.current else { continue }
            let newer = index.releases(id).first { release in
                guard let version = PluginVersion(release.version), let installed = PluginVersion(from), version > installed else { return false }
                return !entry.bad.contains(release.version) && release.manifest.incompatibility(hostAPI: host.versions, swiftRuntime: host.swiftRuntime) == nil
            }
            guard let newer else { continue }
            try await install(id, version: newer.version, from: index)
            updated.append("\(id) \(from) -> \(newer.version)")
        }
        return updated
    }

    /// Uninstalls `id`; a loaded copy stays in this process until it exits.
    public func remove(_ id: String) throws {
        try store.change { state in
            guard state.plugins.removeValue(forKey: id) != nil else { throw FeedError("'\(id)' is not installed; 'App plugins list' shows what is") }
        }
    }

    /// The installed plugins: id, the version that loads, an update waiting, versions marked bad.
    public func installed() throws -> [(id: String, current: String?, pending: String?, bad: [String])] {
        try store.readState().plugins.sorted { $0.key < $1.key }.map { ($0.key, $0.value.current, $0.value.pending, $0.value.bad) }
    }

    private func choose(_ id: String, version: String?, in index: FeedIndex, installed: StoreState.Plugin?) throws -> FeedIndex.Release {
        let releases = index.releases(id)
        guard !releases.isEmpty else {
            let known = index.plugins.keys.sorted()
            throw FeedError("the feed has no plugin '\(id)'" + (known.isEmpty ? "" : "; it has \(known.joined(separator: ", "))"))
        }
        let problem = { (release: FeedIndex.Release) in release.manifest.incompatibility(hostAPI: host.versions, swiftRuntime: host.swiftRuntime) }
        guard let version else {
            guard let release = releases.first(where: { problem($0) == nil && !(installed?.bad.contains($0.version) ?? false) }) else {
                throw FeedError(
                    "no version of '\(id)' in the feed fits this App: "
                        + (releases.first.flatMap(problem).map { "\(releases[0].version) is \($0)" } ?? "all are marked bad"))
            }
            if let current = installed?.current, let have = PluginVersion(current), let offered = PluginVersion(release.version), offered < have {
                throw FeedError(
                    "the feed's newest fitting version of '\(id)' is \(release.version), older than the installed \(current). "
                        + "To go back to it, ask for it: App plugins install \(id)@\(release.version)")
            }
            return release
        }
        guard let release = releases.first(where: { $0.version == version }) else {
            throw FeedError("the feed has no version \(version) of '\(id)'; it has \(releases.map(\.version).joined(separator: ", "))")
        }
        if let reason = problem(release) { throw FeedError("\(id) \(version) cannot load in this App: it was \(reason)") }
        return release
    }

    private func download(_ release: FeedIndex.Release) async throws -> VerifiedPlugin {
        guard let feed = configuration.feed else { throw FeedError("the App has no plugin feed") }
        guard release.size <= configuration.archiveLimit else {
            throw FeedError("\(release.manifest.id) \(release.version) is \(release.size) bytes, more than the \(configuration.archiveLimit) the App accepts")
        }
        var client = FeedClient(feed: feed, timeout: configuration.timeout)
        let name = "\(release.manifest.id) \(release.version)"
        let progress = self.progress
        client.progress = { received, total in progress(name, received, total) }
        let downloads = store.folder.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        // Named by the archive's hash, so the retries of a dropped download resume only into the same bytes.
        let file = downloads.appendingPathComponent("\(release.sha256).part")
        defer { try? FileManager.default.removeItem(at: file) }
        store.checkpoint("download")
        try await client.download(release.archive, to: file, expected: release.size, limit: configuration.archiveLimit)
        let data = try Data(contentsOf: file)
        guard data.count == release.size, Digest.sha256(data) == release.sha256 else {
            throw FeedError("the archive of \(name) is not the one the signed index describes (its size or SHA-256 differs): refused")
        }
        let plugin = try VerifiedPlugin(archive: data, keys: configuration.keys)
        guard plugin.manifest == release.manifest else { throw FeedError("the archive's manifest of \(name) is not the one the signed index lists: refused") }
        store.checkpoint("verified")
        return plugin
    }
}
