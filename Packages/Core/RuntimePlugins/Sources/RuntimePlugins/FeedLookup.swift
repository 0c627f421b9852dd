import Foundation
import PluginFeed
import Router
import Synchronization

/// What one process learnt of the feed while looking up links: when it last failed to answer, so a
/// run of unknown links does not wait for a dead feed at each one.
final class FeedLookups: Sendable {
    private let failure = Mutex<(at: Date, error: FeedError)?>(nil)

    /// How long a failed lookup stands for the feed's answer.
    static let failureMemory: TimeInterval = 60

    /// The failure of a lookup less than ``failureMemory`` ago, if any.
    var recentFailure: FeedError? {
        failure.withLock { failure in
            guard let failure, Date().timeIntervalSince(failure.at) < Self.failureMemory else { return nil }
            return failure.error
        }
    }

    func remember(_ error: FeedError?) {
        failure.withLock { $0 = error.map { (Date(), $0) } }
    }
}

/// A lookup that found the feed silent, kept in the store so the next runs within a minute do not wait again.
struct LookupFailure: Codable {
    var feed: String
    var at: TimeInterval
    var message: String
}

/// An index as fetched (its bytes and signature, verified again whenever it is read) and when.
struct IndexCopy: Codable {
    var feed: String
    var fetched: TimeInterval
    var index: Data
    var signature: Data
}

extension RuntimePluginManager {
    /// A plugin of the feed that declares a link, and the index that says so.
    public struct FeedMatch: Sendable {
        /// The plugin's id.
        public let id: String
        let index: FeedIndex
    }

    /// A plugin of the feed declares a link, but none of its versions can load in this App.
    public struct NoFittingVersion: Error, CustomStringConvertible {
        /// The plugin's id.
        public let id: String
        /// Why its newest version does not fit.
        public let reason: String
        public var description: String { "no version of the plugin '\(id)' in the feed fits this App: \(reason)" }
    }

    /// The plugin of the feed whose declared routes match `url` and that is not installed, if any; throws
    /// ``NoFittingVersion`` when only a version that cannot load here declares it.
    ///
    /// Asked for every link no route matches, so it answers from the index fetched last when that is
    /// younger than ``FeedConfiguration/lookupAge`` (signature and sequence checked again), and does not
    /// ask a feed that failed to answer in the last minute; otherwise it asks the feed once, no retries.
    public func feedPlugin(opening url: String) async throws -> FeedMatch? {
        let index = try await lookupIndex()
        let installed = try store.readState().plugins
        var unfit: NoFittingVersion?
        for id in index.plugins.keys.sorted() where installed[id]?.current == nil {
            let releases = index.releases(id)
            let fitting = releases.first { incompatibility(of: $0) == nil }
            if let fitting, Self.routes(fitting.manifest.routes, match: url) { return FeedMatch(id: id, index: index) }
            if fitting == nil, unfit == nil, let newest = releases.first, Self.routes(newest.manifest.routes, match: url) {
                unfit = NoFittingVersion(id: id, reason: "\(newest.version) is \(incompatibility(of: newest) ?? "unfit")")
            }
        }
        if let unfit { throw unfit }
        return nil
    }

    /// Installs the plugin `match` names, from the index it was found in; returns what happened.
    public func install(_ match: FeedMatch) async throws -> InstallResult {
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

    private func lookupIndex() async throws -> FeedIndex {
        let feed = try feedKey()
        // A copy from the future (a clock set back, a file edited) is no young copy.
        if let copy = store.lookupCopy(), copy.feed == feed, (0..<configuration.lookupAge).contains(Date().timeIntervalSince1970 - copy.fetched),
            let index = try? FeedIndex.verified(copy.index, signature: copy.signature, keys: configuration.keys),
            index.sequence >= (try store.readState().sequences[feed] ?? 0)
        {
            return index
        }
        if let failure = lookups.recentFailure ?? recentFailure(of: feed) { throw FeedError("\(failure) (a moment ago; not asked again for a minute)") }
        do {
            let index = try await fetchIndex(attempts: 1)
            lookups.remember(nil)
            store.keepLookupFailure(nil)
            // Recorded like any index the App saw, so an older one cannot follow (a store it cannot write only loses that).
            try? store.change { state in try record(index, in: &state) }
            return index
        } catch let error as FeedError {
            lookups.remember(error)
            store.keepLookupFailure(LookupFailure(feed: feed, at: Date().timeIntervalSince1970, message: error.message))
            throw error
        }
    }

    /// The failure of a lookup of `feed` by an earlier run, less than a minute ago (never one from the future).
    private func recentFailure(of feed: String) -> FeedError? {
        guard let failure = store.lookupFailure(), failure.feed == feed,
            (0..<FeedLookups.failureMemory).contains(Date().timeIntervalSince1970 - failure.at)
        else { return nil }
        return FeedError(failure.message)
    }

    private static func routes(_ patterns: [String], match url: String) -> Bool {
        let probe = Router()
        for pattern in patterns { try? probe.register(pattern, owner: "probe") { _ in nil } }
        return (try? probe.lookup(url)) != nil
    }
}
