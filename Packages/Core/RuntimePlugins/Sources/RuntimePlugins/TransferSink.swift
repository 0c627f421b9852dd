import CPluginHost
import Foundation
import Synchronization

/// Why one transfer failed, and whether another attempt may help.
struct TransferError: Error {
    var reason: String
    var retry: Bool
}

/// The bytes of one file as its transfers bring them: into a file (resumed across attempts from its
/// size) or into memory, never past a limit.
final class TransferSink: Sendable {
    private struct State {
        var written: Int
        var body = Data()
        var failure: TransferError?
        var restartChecked = false
        var validators = HTTPValidators()
        var notModified = false
    }

    private let file: FileHandle?
    private let filePath: String
    private let conditional: HTTPValidators?
    private let expected: Int?
    private let limit: Int
    private let progress: @Sendable (Int, Int) -> Void
    private let state: Mutex<State>

    /// A sink writing into `file` from its end (nil: into memory).
    init(
        into file: FileHandle?, path: String = "", expected: Int?, limit: Int, conditional: HTTPValidators? = nil,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) {
        self.file = file
        self.filePath = path
        self.conditional = conditional
        self.expected = expected
        self.limit = limit
        self.progress = progress
        self.state = Mutex(State(written: (try? file?.seekToEnd()).map { Int($0) } ?? 0))
    }

    /// Bytes held so far.
    var written: Int { state.withLock { $0.written } }

    /// The bytes held in memory.
    var body: Data { state.withLock { $0.body } }

    /// The first bytes held (from memory, or from the start of the file).
    var head: Data {
        let body = body
        guard body.isEmpty, !filePath.isEmpty, let reader = FileHandle(forReadingAtPath: filePath) else { return body.prefix(64) }
        defer { try? reader.close() }
        return (try? reader.read(upToCount: 64)) ?? Data()
    }

    /// The validators of the last response (ETag, Last-Modified).
    var validators: HTTPValidators { state.withLock { $0.validators } }

    /// Whether the server said the file is still the version `conditional` names (304).
    var notModified: Bool { state.withLock { $0.notModified } }

    /// Fetches `url` from the bytes held on (libcurl blocks, so on a thread of its own); nil when the
    /// transfer ended without error, else why it failed.
    func transfer(_ url: URL, timeout: TimeInterval, totalTimeout: TimeInterval?, minimumRate: Int) async -> TransferError? {
        let offset = state.withLock { state in
            state.failure = nil
            state.restartChecked = false
            return state.written
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<FeedTransferResult, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: self.perform(url, from: offset, timeout: timeout, totalTimeout: totalTimeout, minimumRate: minimumRate))
            }
        }
        if let failure = state.withLock({ $0.failure }) { return failure }
        let reason = Self.text(result.message)
        state.withLock { state in
            state.validators = HTTPValidators(etag: Self.text(result.etag).nonEmpty, lastModified: Self.text(result.last_modified).nonEmpty)
        }
        switch result.outcome {
        case .completed where (200..<300).contains(result.status):
            return nil
        case .completed where result.status == 304 && conditional != nil:
            state.withLock { $0.notModified = true }
            return nil
        case .completed, .httpError:
            let status = result.status
            return TransferError(reason: "the server answered \(status)", retry: (500..<600).contains(status) || status == 408 || status == 429)
        case .timedOut:
            return TransferError(reason: "the server stopped sending or took too long (timed out)", retry: true)
        case .tooSlow:
            return TransferError(reason: "the server sends too slowly (\(reason); the App needs \(minimumRate) bytes a second)", retry: true)
        case .tooLarge:
            return TransferError(
                reason: "the server announced more than the \(limit) bytes allowed" + (expected.map { " (the signed index says \($0))" } ?? ""), retry: false)
        case .stopped, .failed:
            return TransferError(reason: reason, retry: true)
        case .unavailable:
            return TransferError(reason: reason, retry: false)
        case .badRedirect:
            return TransferError(reason: "the server's redirects never reach the file (\(reason))", retry: false)
        }
    }

    /// A fixed C character array's text, up to its first NUL.
    private static func text<T>(_ characters: T) -> String {
        withUnsafeBytes(of: characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private func perform(_ url: URL, from offset: Int, timeout: TimeInterval, totalTimeout: TimeInterval?, minimumRate: Int) -> FeedTransferResult {
        let milliseconds = Int(min(max(timeout, 0.001), 86_400) * 1000)
        let total = totalTimeout.map { Int(min(max($0, 0.001), 86_400) * 1000) } ?? max(milliseconds * 20, 600_000)
        var result = FeedTransferResult()
        let etag = conditional?.etag.flatMap { strdup($0) }, since = conditional?.lastModified.flatMap { strdup($0) }
        defer {
            free(etag)
            free(since)
        }
        url.absoluteString.withCString { text in
            var request = FeedTransferRequest(
                url: text, offset: Int64(offset), idle_timeout_ms: milliseconds, total_timeout_ms: total,
                minimum_rate: Int64(minimumRate), max_size: Int64(limit),
                receive: { context, status, bytes, count in
                    guard let context, let bytes else { return 0 }
                    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
                    return sink.receive(UnsafeRawBufferPointer(start: bytes, count: count), status: status) ? count : 0
                },
                context: Unmanaged.passUnretained(self).toOpaque(), if_none_match: etag, if_modified_since: since)
            feed_transfer_get(&request, &result)
        }
        return result
    }

    /// Takes the next bytes of a response with `status`; false stops the transfer.
    private func receive(_ bytes: UnsafeRawBufferPointer, status: Int) -> Bool {
        let written = state.withLock { state -> Int? in
            if !state.restartChecked {
                state.restartChecked = true
                // A whole file (200) where the rest was asked for: the server ignores Range, start over.
                if status == 200, state.written > 0 {
                    state.written = 0
                    state.body.removeAll()
                    do { try file?.truncate(atOffset: 0) } catch { return fail(&state, writeFailure(error)) }
                }
            }
            guard state.written + bytes.count <= limit else {
                return fail(&state, "the server sent more than the \(limit) bytes allowed" + (expected.map { " (the signed index says \($0))" } ?? ""))
            }
            do {
                if let file { try file.write(contentsOf: Data(bytes)) } else { state.body.append(contentsOf: bytes) }
            } catch {
                return fail(&state, writeFailure(error))
            }
            state.written += bytes.count
            return state.written
        }
        guard let written else { return false }
        progress(written, expected ?? written)
        return true
    }

    /// What a failed write of the download says: where, why, and what to do.
    private func writeFailure(_ error: any Error) -> String {
        let full = (error as NSError).code == CocoaError.fileWriteOutOfSpace.rawValue
        return "writing the download into \(filePath) failed: " + (full ? "No space left on device; free some space on that disk" : error.localizedDescription)
    }

    private func fail(_ state: inout State, _ reason: String) -> Int? {
        state.failure = TransferError(reason: reason, retry: false)
        return nil
    }
}

/// What identifies a version of a file on a server: HTTP's cache validators.
public struct HTTPValidators: Codable, Sendable, Equatable {
    /// The `ETag` header.
    public var etag: String?
    /// The `Last-Modified` header.
    public var lastModified: String?

    /// Validators with these values.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is any to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
