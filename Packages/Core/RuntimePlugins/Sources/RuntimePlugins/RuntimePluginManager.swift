public import Foundation
public import PluginFeed
import Router
import Synchronization

/// Where plugins come from and who may sign them.
public struct FeedConfiguration: Sendable {
    /// The feed's folder URL (`http://`, `https://`, `file://`), or nil when the App has none.
    public var feed: URL?
    /// The public keys whose signatures the App accepts.
    public var keys: TrustedKeys
    /// Seconds without a byte before a download is given up; also the window over which a download
    /// must keep up `minimumRate`.
    public var timeout: TimeInterval = 30
    /// The slowest download accepted, in bytes a second averaged over `timeout` (a server that
    /// trickles a byte now and then is given up, not waited for forever).
    public var minimumRate = 1024
    /// The largest archive the App downloads.
    public var archiveLimit = 64 << 20
    /// The setting that names the feed, for the message of an App without one.
    public var feedSetting = "the App's plugin feed setting"
    /// The app's command that manages its plugins, as messages tell a user to type it (`MyApp plugins`).
    public var command = "plugins"
    /// Seconds for which an index fetched before answers "which plugin opens this link?" for links no
    /// route matches, instead of asking the feed again at each one.
    public var lookupAge: TimeInterval = 300

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
    /// What this process learnt of the feed while looking up links (shared by copies of the manager).
    let lookups = FeedLookups()
    /// What this process did with each plugin, by id (shared by copies of the manager).
    let runs = RunNotes()
    /// The installed versions checked ahead of this start's load (shared by copies of the manager).
    let ahead = CheckedAhead()

    /// A manager of `store`.
    public init(store: PluginStore, configuration: FeedConfiguration, host: HostAPI, report: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.configuration = configuration
        self.host = host
        self.report = report
    }

    // MARK: Feed

    /// The feed's index, signature checked and never older than one seen before; its sequence is
    /// recorded (when the store can be written: a read-only store only warns).
    public func index() async throws -> FeedIndex {
        let index = try await fetchIndex()
        do {
            try store.change { state in try record(index, in: &state) }
        } catch let error as StoreUnwritable {
            report("warning: \(error)\n")
        }
        return index
    }

    /// The feed, as its recorded sequence and lookup copy are filed: scheme and host in lower case, no
    /// trailing slash, so one feed spelt two ways is one feed.
    func feedKey() throws -> String {
        let url = try feedURL()
        var key = (url.scheme ?? "").lowercased() + "://" + (url.host ?? "").lowercased() + (url.port.map { ":\($0)" } ?? "") + url.path
        while key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// The feed's URL, or why there is none.
    func feedURL() throws -> URL {
        guard let feed = configuration.feed else {
            throw FeedError("the App has no plugin feed: set \(configuration.feedSetting) to its URL (http://, https:// or file://)")
        }
        return feed
    }

    /// The feed's index, signature checked and never older than the one the store recorded last; kept
    /// as the store's lookup copy.
    func fetchIndex(attempts: Int = 2) async throws -> FeedIndex {
        let feed = try feedURL()
        var client = FeedClient(feed: feed, timeout: configuration.timeout)
        client.attempts = attempts
        client.minimumRate = configuration.minimumRate
        var fetched: (index: FeedIndex, data: Data, signature: Data)?
        // Two tries: a publish between the two reads pairs a new index with an old signature.
        for attempt in 0..<2 where fetched == nil {
            async let indexData = client.data(FeedIndex.fileName, limit: 8 << 20)
            let signature = try await client.data(FeedIndex.signatureName, limit: 64 << 10)
            let data = try await indexData
            do {
                fetched = (try FeedIndex.verified(data, signature: signature, keys: configuration.keys), data, signature)
            } catch let error as FeedError where attempt == 0 && error.message.contains("does not match") {
                continue
            }
        }
        guard let fetched else { throw FeedError("the feed's index does not verify") }
        // A replay is refused before anything is downloaded; the sequence is recorded with the change.
        var recorded = try store.readState()
        try record(fetched.index, in: &recorded)
        store.keepLookupCopy(IndexCopy(feed: try feedKey(), fetched: Date().timeIntervalSince1970, index: fetched.data, signature: fetched.signature))
        return fetched.index
    }

    /// Refuses an index older than the one `state` recorded for this feed (a replayed or rolled-back
    /// feed), and records it.
    func record(_ index: FeedIndex, in state: inout StoreState) throws {
        let feed = try feedKey()
        try SignedDocument.checkSequence(index.sequence, seen: state.sequences[feed], what: "the feed's index")
        state.sequences[feed] = index.sequence
    }

    /// What can be said about each release of the feed: installable, or why not (it cannot load here, or
    /// it was marked bad here).
    public func available() async throws -> [(release: FeedIndex.Release, problem: String?)] {
        let index = try await index()
        let state = try store.readState()
        return index.plugins.keys.sorted().flatMap { id in
            index.releases(id).map { release in
                let bad = state.plugins[id]?.bad.contains(release.version) == true
                let problem = incompatibility(of: release).map { "cannot load here: \($0)" }
                return (release, problem ?? (bad ? "marked bad here (install it by version to try it again)" : nil))
            }
        }
    }

    /// Why `release` cannot load in this App, or nil when it can.
    func incompatibility(of release: FeedIndex.Release) -> String? {
        host.incompatibility(of: release.manifest)
    }

    /// The installed plugins: id, the version that loads, an update waiting, versions marked bad, and
    /// whether it is held at a version named at install.
    public func installed() throws -> [InstalledPlugin] {
        try store.readState().plugins.sorted { $0.key < $1.key }.map {
            InstalledPlugin(id: $0.key, current: $0.value.current, pending: $0.value.pending, bad: $0.value.bad, held: $0.value.held)
        }
    }

    /// Each installed plugin as this process found it: loaded (and whether on trial), left out or
    /// refused and why, turned off, or not loaded in this run; with an update waiting and versions marked bad.
    public func runStatus() throws -> [(id: String, state: String)] {
        let runs = runs.states.withLock { $0 }
        return try store.readState().plugins.sorted { $0.key < $1.key }.map { id, entry in
            var state = runs[id] ?? "not loaded in this run" + (entry.current.map { " (\($0) loads at the next start)" } ?? "")
            if let trial = entry.trial?.version, runs[id] == "loaded \(trial)" { state += ", on trial until its code runs to a clean exit" }
            if let pending = entry.pending, pending != entry.current { state += "; \(pending) waits for the next start" }
            if !entry.bad.isEmpty { state += "; marked bad: \(entry.bad.joined(separator: ", "))" }
            return (id, state)
        }
    }

    /// Records what this process did with `id`.
    func noteRun(_ id: String, _ state: String) {
        runs.states.withLock { $0[id] = state }
    }
}

/// What one process did with each plugin, by id.
final class RunNotes: Sendable {
    let states = Mutex<[String: String]>([:])
}

/// One installed plugin as the app's `plugins list` shows it.
public struct InstalledPlugin: Sendable, Equatable {
    /// The plugin's id.
    public var id: String
    /// The version that loads (nil: none, every version is marked bad).
    public var current: String?
    /// An update that loads at the next start.
    public var pending: String?
    /// Versions marked bad.
    public var bad: [String]
    /// Installed by version: `update` without an id leaves it.
    public var held: Bool
}
