public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PluginFeed
import Synchronization

/// Fetches from a plugin feed (`http://`, `https://` or `file://`): bounded in size, with an idle
/// timeout, and with resumed retries (`Range`) after a dropped connection or a server error.
public struct FeedClient: Sendable {
    /// The feed's folder URL.
    public let feed: URL
    /// Seconds without a byte before a transfer is given up.
    public var timeout: TimeInterval
    /// Attempts per file (the first included).
    public var attempts = 3
    /// Hears bytes received and the expected total of each transfer.
    public var progress: @Sendable (_ received: Int, _ total: Int) -> Void = { _, _ in }

    /// A client of `feed`.
    public init(feed: URL, timeout: TimeInterval = 30) {
        self.feed = feed
        self.timeout = timeout
    }

    /// The file at `path` in the feed, at most `limit` bytes, in memory.
    public func data(_ path: String, limit: Int) async throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try await download(path, to: file, expected: nil, limit: limit)
        return try Data(contentsOf: file)
    }

    /// Downloads `path` into `file` (resuming what a previous attempt left there); `expected` is the size
    /// the signed index states: more is refused at once, less is retried, then refused.
    public func download(_ path: String, to file: URL, expected: Int?, limit: Int) async throws {
        let url = feed.appendingPathComponent(path)
        if url.isFileURL {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else {
                throw FeedError("the feed has no \(path) (\(url.path) does not exist)")
            }
            guard size <= min(limit, expected ?? limit) else {
                throw FeedError("\(path) is \(size) bytes, more than the \(min(limit, expected ?? limit)) allowed")
            }
            try Data(contentsOf: url).write(to: file)
            progress(size, size)
            return
        }
        guard url.scheme == "http" || url.scheme == "https" else { throw FeedError("the feed URL must start with http://, https:// or file://, not '\(feed)'") }
        if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        var lastError: FeedError?
        for attempt in 0..<attempts {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(250 << attempt)) }
            let have = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
            if let expected, have == expected { return }
            do {
                try await transfer(url, to: file, from: have, expected: expected, limit: min(limit, expected ?? limit))
                let size = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
                guard let expected, size < expected else { return }
                lastError = FeedError("\(path) ended after \(size) of \(expected) bytes")
            } catch let error as TransferError {
                lastError = FeedError("downloading \(url.absoluteString) failed: \(error.reason)")
                if !error.retry { break }
            }
        }
        throw lastError ?? FeedError("downloading \(url.absoluteString) failed")
    }

    private func transfer(_ url: URL, to file: URL, from offset: Int, expected: Int?, limit: Int) async throws {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if offset > 0 { request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 20, 600)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let sink = TransferSink(handle: handle, offset: offset, expected: expected, limit: limit, progress: progress)
        let session = URLSession(configuration: configuration, delegate: sink, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            sink.start(session.dataTask(with: request), continuation)
        }
    }
}

/// Why one transfer failed, and whether another attempt may help.
struct TransferError: Error {
    var reason: String
    var retry: Bool
}

/// Writes a response's body to the file as it arrives and ends the transfer's continuation once.
final class TransferSink: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var written: Int
        var failure: TransferError?
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private let handle: FileHandle
    private let expected: Int?
    private let limit: Int
    private let progress: @Sendable (Int, Int) -> Void
    private let state: Mutex<State>

    init(handle: FileHandle, offset: Int, expected: Int?, limit: Int, progress: @escaping @Sendable (Int, Int) -> Void) {
        self.handle = handle
        self.expected = expected
        self.limit = limit
        self.progress = progress
        self.state = Mutex(State(written: offset))
    }

    func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Void, any Error>) {
        state.withLock { $0.continuation = continuation }
        task.resume()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let failure: TransferError? = state.withLock { state in
            switch status {
            case 206 where state.written > 0:
                return nil
            case 200:
                // The server sends the whole file again (no Range support): start over.
                if state.written > 0 {
                    _ = try? handle.truncate(atOffset: 0)
                    state.written = 0
                }
                return nil
            case 500...599, 408, 429:
                return TransferError(reason: "the server answered \(status)", retry: true)
            default:
                return TransferError(reason: "the server answered \(status)", retry: false)
            }
        }
        if let failure {
            state.withLock { $0.failure = failure }
            completionHandler(.cancel)
            return
        }
        _ = try? handle.seekToEnd()
        if response.expectedContentLength > Int64(limit) {
            state.withLock { $0.failure = TransferError(reason: "it is \(response.expectedContentLength) bytes, more than the \(limit) allowed", retry: false) }
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (written, tooLarge) = state.withLock { state -> (Int, Bool) in
            guard state.failure == nil else { return (state.written, false) }
            guard state.written + data.count <= limit else {
                state.failure = TransferError(reason: "it is more than the \(limit) bytes allowed", retry: false)
                return (state.written, true)
            }
            do {
                try handle.write(contentsOf: data)
                state.written += data.count
            } catch {
                let full = (error as NSError).code == CocoaError.fileWriteOutOfSpace.rawValue
                state.failure = TransferError(reason: "writing it failed: " + (full ? "No space left on device" : error.localizedDescription), retry: false)
                return (state.written, true)
            }
            return (state.written, false)
        }
        if tooLarge {
            dataTask.cancel()
            return
        }
        progress(written, expected ?? written)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, failure) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, TransferError?) in
            defer { state.continuation = nil }
            return (state.continuation, state.failure)
        }
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
            let timedOut = (error as? URLError)?.code == .timedOut
            continuation?.resume(throwing: TransferError(reason: timedOut ? "the server stopped sending (timed out)" : error.localizedDescription, retry: true))
        } else {
            continuation?.resume()
        }
    }
}
