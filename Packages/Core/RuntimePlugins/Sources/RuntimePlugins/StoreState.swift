/// The installed plugins' state (`state.json` in the store): the one file whose atomic replacement
/// commits every install, update, promotion and removal.
struct StoreState: Codable, Equatable {
    /// One plugin's versions.
    struct Plugin: Codable, Equatable {
        /// The version that loads, once loaded fine.
        var current: String?
        /// An installed update: loaded at the next start instead of `current`.
        var pending: String?
        /// Versions that failed to load or crashed the App while loading: never loaded again.
        var bad: [String] = []
        /// The version being loaded and how many starts tried it without finishing: a start that
        /// finds 2 here knows the load crashed the App twice.
        var attempt: Attempt?

        /// The version the next start tries.
        var candidate: String? { pending ?? current }
        /// The versions whose files the store keeps.
        var kept: Set<String> { Set([current, pending].compactMap { $0 }) }
    }

    /// A load under way.
    struct Attempt: Codable, Equatable {
        var version: String
        var count: Int
    }

    /// The format's version.
    var format = 1
    /// The highest index sequence seen from the feed: lower ones are replays.
    var feedSequence = 0
    /// The plugins, by id.
    var plugins: [String: Plugin] = [:]
}
