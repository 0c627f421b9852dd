public import Foundation
import CPluginHost
import PluginFeed

/// Fetches from a plugin feed (`http://`, `https://` or `file://`): bounded in size, with an idle
/// timeout, and with resumed retries (`Range`) after a dropped connection or a server error.
///
/// HTTP goes through libcurl, loaded at the first transfer: an App start that downloads nothing does not
/// load it, nor the TLS and name libraries it needs.
public struct FeedClient: Sendable {
    /// The feed's folder URL.
    public let feed: URL
    /// Seconds without a byte before a transfer is given up.
    public var timeout: TimeInterval
    /// Attempts per file (the first included).
    public var attempts = 3
    /// The slowest transfer accepted, in bytes a second averaged over `timeout` (0: any).
    public var minimumRate = 0
    /// Seconds a whole transfer may take, however steadily the bytes come (nil: 20 times `timeout`, at
    /// least 10 minutes).
    public var totalTimeout: TimeInterval?
    /// Hears bytes received and the expected total of each transfer.
    public var progress: @Sendable (_ received: Int, _ total: Int) -> Void = { _, _ in }

    /// A client of `feed`.
    public init(feed: URL, timeout: TimeInterval = 30) {
        self.feed = feed
        self.timeout = timeout
    }

    /// Starts loading the HTTP library on a thread of its own, so that a transfer started soon after
    /// finds it loaded.
    public static func preload() {
        Thread.detachNewThread { feed_transfer_preload() }
    }

    /// The file at `path` in the feed, at most `limit` bytes, in memory.
    public func data(_ path: String, limit: Int) async throws -> Data {
        let url = feed.appendingPathComponent(path)
        if url.isFileURL { return try local(url, path: path, limit: limit) }
        let sink = TransferSink(into: nil, expected: nil, limit: limit, progress: progress)
        try await fetch(url, path: path, into: sink, expected: nil)
        return sink.body
    }

    /// What a conditional fetch gave.
    public enum Fetched: Sendable, Equatable {
        /// The file as the server has it now, and its validators.
        case fresh(Data, HTTPValidators)
        /// The server's copy is still the one the validators name (304).
        case notModified
    }

    /// The file at `path`, at most `limit` bytes, unless the server says it is still the version `validators`
    /// name (HTTP's conditional GET; a `file://` feed always answers the file).
    public func data(_ path: String, limit: Int, ifChangedSince validators: HTTPValidators?) async throws -> Fetched {
        let url = feed.appendingPathComponent(path)
        if url.isFileURL { return .fresh(try local(url, path: path, limit: limit), HTTPValidators()) }
        let sink = TransferSink(into: nil, expected: nil, limit: limit, conditional: validators?.isEmpty == false ? validators : nil, progress: progress)
        try await fetch(url, path: path, into: sink, expected: nil)
        return sink.notModified ? .notModified : .fresh(sink.body, sink.validators)
    }

    /// Downloads `path` into `file` (resuming what a previous attempt left there); `expected` is the size
    /// the signed index states: more is refused at once, less is retried, then refused.
    public func download(_ path: String, to file: URL, expected: Int?, limit: Int) async throws {
        let url = feed.appendingPathComponent(path)
        let limit = min(limit, expected ?? limit)
        if url.isFileURL {
            try local(url, path: path, limit: limit).write(to: file)
            return
        }
        if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try await fetch(
            url, path: path, into: TransferSink(into: handle, path: file.path, expected: expected, limit: limit, progress: progress), expected: expected)
    }

    private func local(_ url: URL, path: String, limit: Int) throws -> Data {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
            throw FeedError("the feed has no \(path) (\(url.path) does not exist)")
        }
        guard size <= limit else { throw FeedError("\(path) is \(size) bytes, more than the \(limit) allowed") }
        let data = try Data(contentsOf: url)
        progress(data.count, data.count)
        return data
    }

    private func fetch(_ url: URL, path: String, into sink: TransferSink, expected: Int?) async throws {
        guard url.scheme == "http" || url.scheme == "https" else { throw FeedError("the feed URL must start with http://, https:// or file://, not '\(feed)'") }
        var lastError: FeedError?
        for attempt in 0..<attempts {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(250 << attempt)) }
            if let expected, sink.written == expected { return }
            if let failure = await sink.transfer(url, timeout: timeout, totalTimeout: totalTimeout, minimumRate: minimumRate) {
                lastError = FeedError("downloading \(url.absoluteString) failed: \(failure.reason)")
                if !failure.retry { break }
                continue
            }
            guard let expected, sink.written < expected else { return }
            // A page where the archive should be (a portal, an error page with status 200): no retry brings the archive.
            if String(decoding: sink.head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") {
                throw FeedError(
                    "\(url.absoluteString) is an HTML page (\(sink.written) bytes), not the \(expected)-byte file the signed index names: "
                        + "the server answers with a web page there (an error or login page, or a feed URL that names no feed?)")
            }
            lastError = FeedError("\(path) ended after \(sink.written) of \(expected) bytes")
        }
        throw lastError ?? FeedError("downloading \(url.absoluteString) failed")
    }
}
