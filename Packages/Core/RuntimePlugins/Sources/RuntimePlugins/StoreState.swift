import Foundation
import Glibc

/// The installed plugins' state (`state.json` in the store): the one file whose atomic replacement
/// commits every install, update, promotion and removal.
///
/// Fields added after the first format are optional when read, so a store written by an older App
/// still opens.
struct StoreState: Codable, Equatable {
    /// One plugin's versions.
    struct Plugin: Codable, Equatable {
        /// The version that loads.
        var current: String?
        /// An installed update: loaded at the next start instead of `current`.
        var pending: String?
        /// The version `current` replaced, kept until `current` has run once to a clean exit: the one
        /// used again if `current` crashes the App twice.
        var previous: String?
        /// Versions that failed to load or crashed the App: never loaded again unless installed by name.
        var bad: [String] = []
        /// The version on trial (loaded, not yet run to a clean exit), and the runs that loaded it.
        var trial: Trial?
        /// Installed by version (`install ID@VERSION`): `update` without an id leaves it where it is.
        var held = false

        /// The version the next start tries.
        var candidate: String? { pending ?? current }
        /// The versions whose files the store keeps.
        var kept: Set<String> { Set([current, pending, previous].compactMap { $0 }) }

        init() {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            current = try container.decodeIfPresent(String.self, forKey: .current)
            pending = try container.decodeIfPresent(String.self, forKey: .pending)
            previous = try container.decodeIfPresent(String.self, forKey: .previous)
            bad = try container.decodeIfPresent([String].self, forKey: .bad) ?? []
            trial = try container.decodeIfPresent(Trial.self, forKey: .trial)
            held = try container.decodeIfPresent(Bool.self, forKey: .held) ?? false
        }
    }

    /// A version's first runs: each run that loads it leaves a mark, and a clean exit takes the mark
    /// away. A mark whose process is gone is a crash; two make the version bad.
    struct Trial: Codable, Equatable {
        /// The version on trial.
        var version: String
        /// Runs that loaded it and died without a clean exit.
        var crashes = 0
        /// The runs that loaded it and are still running (or died without a word).
        var runs: [RunMark] = []
    }

    /// The format's version.
    var format = 1
    /// The highest index sequence seen from each feed (by its URL): lower ones are replays.
    var sequences: [String: Int] = [:]
    /// The plugins, by id.
    var plugins: [String: Plugin] = [:]

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        sequences = try container.decodeIfPresent([String: Int].self, forKey: .sequences) ?? [:]
        plugins = try container.decodeIfPresent([String: Plugin].self, forKey: .plugins) ?? [:]
    }
}

/// One process, named so that a later process can tell whether it still runs: its pid and its start
/// time (a pid can be reused; the pair cannot).
struct RunMark: Codable, Equatable, Hashable {
    var pid: Int32
    var started: UInt64

    /// This process.
    static var current: RunMark { RunMark(pid: getpid(), started: startTime(of: getpid()) ?? 0) }

    /// Whether the process still runs (a zombie does not).
    var isRunning: Bool {
        guard let started = Self.startTime(of: pid) else { return false }
        return started == self.started
    }

    /// The process's start time in clock ticks after boot (`/proc/PID/stat`, field 22), nil when there
    /// is no such process or it is a zombie.
    private static func startTime(of pid: Int32) -> UInt64? {
        // Read to the end: /proc files report a size of 0.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/stat"), let data = try? handle.readToEnd() else { return nil }
        try? handle.close()
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces and parentheses): state is field 3, start time 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z" else { return nil }
        return UInt64(fields[19])
    }
}
