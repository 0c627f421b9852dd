public import Foundation
import PluginFeed
import Synchronization

/// What is recorded of a passed job: enough to say where a skipped result came from.
public struct PassedResult: Codable, Sendable, Equatable {
    /// The job: a component, `app my-app`, a step of `make test`.
    public var job: String
    /// `test`, or `step` for a command of `componentctl cached`.
    public var action: String
    /// The key it passed with.
    public var key: String
    /// How long it took, in seconds.
    public var seconds: Double
    /// When it finished (ISO 8601, UTC).
    public var finished: String

    /// Creates a record.
    public init(job: String, action: String, key: String, seconds: Double, finished: Date = Date()) {
        self.job = job
        self.action = action
        self.key = key
        self.seconds = (seconds * 10).rounded() / 10
        self.finished = ISO8601DateFormatter().string(from: finished)
    }
}

/// Remembers which keys passed, in a ``ResultsStore``, so a job whose key already passed is skipped.
///
/// The cache never fails a command: a store that cannot be read or written, an entry that is not one, are
/// warnings, and the job simply runs. A store that cannot be reached at all is not asked again in the run.
public final class ResultsCache: Sendable {
    private let store: any ResultsStore
    /// Whether results are only read, never recorded.
    public let readOnly: Bool
    private let warn: @Sendable (String) -> Void
    private let unreachable = Mutex(false)
    /// Seconds the store may take in one run, all requests together: a server answering each request
    /// slowly, but within its timeout, would otherwise add minutes to a run of many jobs.
    private let budget: TimeInterval
    private let spent = Mutex<TimeInterval>(0)

    init(store: any ResultsStore, readOnly: Bool, budget: TimeInterval = 30, warn: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.readOnly = readOnly
        self.budget = budget
        self.warn = warn
    }

    /// `body`'s result, its time counted against the budget; past the budget the store is not asked again.
    private func timed<T>(_ body: () throws -> T) rethrows -> T {
        let start = Date()
        defer {
            let total = spent.withLock { total in
                total += Date().timeIntervalSince(start)
                return total
            }
            let first =
                total > budget
                && unreachable.withLock { wasGivenUp in
                    defer { wasGivenUp = true }
                    return !wasGivenUp
                }
            if first {
                warn(
                    "the results cache \(location) took \(String(format: "%.1f", total)) s in this run, more than its \(String(format: "%g", budget)) s; it is not asked again, and every job runs"
                )
            }
        }
        return try body()
    }

    /// The folder or URL results are kept in.
    public var location: String { store.location }

    /// Throws when the cache is a folder inside `repository`'s working tree that git does not ignore: what it
    /// records there would change the keys of the folder it is in, so nothing would ever be found again.
    public func checkPlacement(in repository: GitRepository) throws {
        guard let folder = (store as? FolderStore)?.folder, let path = repository.relativePath(of: folder),
            path.isEmpty || (try? repository.isIgnored(path + "/")) != true
        else { return }
        throw ToolError(
            "The results cache \(location) is inside the repository and git does not ignore it: what it records would change the keys "
                + "and the work tree. Use a folder outside it (the default is ~/.cache/componentctl/results) or one .gitignore names.",
            status: .usage)
    }

    /// The cache `--cache`/`COMPONENTCTL_CACHE` names (a folder, or an http(s):// URL of a Bazel remote
    /// cache; `off` for none), else the user's cache folder (`$XDG_CACHE_HOME/componentctl/results`, or
    /// `~/.cache/...`); nil when caching is off. Throws naming a location it cannot use.
    public static func configured(
        location option: String?, readOnly: Bool, environment: [String: String], warn: @escaping @Sendable (String) -> Void
    ) throws -> ResultsCache? {
        let readOnly = readOnly || ["1", "true", "yes"].contains(environment["COMPONENTCTL_CACHE_READ_ONLY"]?.lowercased() ?? "")
        if option?.isEmpty == true {
            throw ToolError("--cache was given no value. Give a folder, the URL of a Bazel remote cache, or 'off'.", status: .usage)
        }
        let named = option ?? environment["COMPONENTCTL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
        if let named, ["off", "none", "false", "0", "no"].contains(named.lowercased()) { return nil }
        if let named {
            if named.contains("://") {
                guard var parts = URLComponents(string: named), ["http", "https"].contains(parts.scheme?.lowercased() ?? ""), parts.host != nil,
                    (1...65535).contains(parts.port ?? 80)
                else {
                    throw ToolError(
                        "The results cache '\(named)' is no folder and no http(s):// URL with a host (and a port from 1 to 65535). Give a folder, the URL of a Bazel remote cache "
                            + "(bazel-remote, nginx with WebDAV), or 'off'.", status: .usage)
                }
                parts.scheme = parts.scheme?.lowercased()
                guard let url = parts.url else { throw ToolError("The results cache '\(named)' is no URL URLSession can open.", status: .usage) }
                return ResultsCache(store: HTTPStore(base: url), readOnly: readOnly, warn: warn)
            }
            return ResultsCache(store: FolderStore(folder: URL(fileURLWithPath: named).standardizedFileURL), readOnly: readOnly, warn: warn)
        }
        guard let base = userCacheFolder(environment) else { return nil }
        return ResultsCache(store: FolderStore(folder: base.appendingPathComponent("results")), readOnly: readOnly, warn: warn)
    }

    /// The user's cache folder of componentctl: `$XDG_CACHE_HOME/componentctl`, else `~/.cache/componentctl`; nil without either.
    static func userCacheFolder(_ environment: [String: String]) -> URL? {
        // Relative or empty values would put the cache wherever the command runs, perhaps inside a repository.
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 + "/.cache" : nil }
        return base.map { URL(fileURLWithPath: $0).appendingPathComponent("componentctl") }
    }

    /// The action-cache key of `key` passing `action`.
    static func entryKey(_ key: String, action: String) -> String {
        Digest.sha256(Data("componentctl result 1\n\(action)\n\(key)\n".utf8))
    }

    /// The record of `key` having passed `action`, or nil (also when the entry cannot be read or is not one).
    public func passed(_ key: String, action: String) -> PassedResult? {
        guard !unreachable.withLock({ $0 }) else { return nil }
        let entry = Self.entryKey(key, action: action)
        do {
            guard let bytes = try timed({ try store.get("ac/\(entry)") }) else { return nil }
            guard let result = ActionResult(decoding: bytes), result.exitCode == 0 else {
                warn("the cached entry ac/\(entry) in \(location) is not one componentctl wrote; it is ignored")
                return nil
            }
            guard let content = try timed({ try store.get("cas/\(result.recordHash)") }) else { return nil }
            guard content.count == result.recordSize, Digest.sha256(Data(content)) == result.recordHash,
                let record = try? JSONDecoder().decode(PassedResult.self, from: Data(content)), record.key == key, record.action == action
            else {
                warn("the cached record cas/\(result.recordHash) in \(location) is damaged; it is ignored")
                return nil
            }
            return record
        } catch {
            failed(error, doing: "read")
            return nil
        }
    }

    /// Records that `record.key` passed (nothing when the cache is read-only).
    public func record(_ record: PassedResult) {
        guard !readOnly, !unreachable.withLock({ $0 }) else { return }
        do {
            let content = Array(try JSONOutput.string(record).utf8)
            let hash = Digest.sha256(Data(content))
            // The content first: an action-cache entry never names content that is not there.
            try timed { try store.put("cas/\(hash)", content) }
            try timed {
                try store.put("ac/\(Self.entryKey(record.key, action: record.action))", ActionResult(recordHash: hash, recordSize: content.count).encoded())
            }
        } catch {
            failed(error, doing: "record")
        }
    }

    private func failed(_ error: any Error, doing what: String) {
        let store = error as? StoreError
        if store?.unreachable == true {
            unreachable.withLock { $0 = true }
            warn("the results cache \(location) cannot be reached (\(error)); every job runs, and no result is recorded in this run")
        } else {
            let consequence = what == "read" ? "the job runs as if uncached" : "the result is not recorded"
            warn("the results cache \(location) could not \(what) a result (\(store?.description ?? ToolError.describe(error))); \(consequence)")
        }
    }
}
