import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where passed results are kept, in the layout of Bazel's HTTP remote cache: `ac/<key>` (an action-cache
/// entry) and `cas/<sha256>` (content, addressed by its hash). A folder in that layout can be served as it
/// is by nginx or synced anywhere; a server in it (bazel-remote, nginx with WebDAV) is shared by a team.
protocol ResultsStore: Sendable {
    /// The folder or URL, for messages.
    var location: String { get }
    /// The bytes at `path`, nil when there are none; throws when the store cannot be asked.
    func get(_ path: String) throws -> [UInt8]?
    /// Stores `bytes` at `path`; throws when the store refuses or cannot be reached.
    func put(_ path: String, _ bytes: [UInt8]) throws
}

/// A store that cannot be read or written, and why.
struct StoreError: Error, CustomStringConvertible {
    var description: String
    /// The server is not there at all (no connection): asking again in this run would only wait again.
    var unreachable = false
}

/// A results store in a folder of this machine.
struct FolderStore: ResultsStore {
    let folder: URL
    var location: String { folder.path }

    func get(_ path: String) throws -> [UInt8]? {
        let file = folder.appendingPathComponent(path)
        do {
            return Array(try Data(contentsOf: file))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw StoreError(description: "cannot read \(file.path): \(ToolError.describe(error))")
        }
    }

    func put(_ path: String, _ bytes: [UInt8]) throws {
        let file = folder.appendingPathComponent(path)
        do {
            try FileStatus.createFolder(file.deletingLastPathComponent(), purpose: "the results cache")
            // A reader sees the whole entry or none (temp file, then rename).
            try AtomicFile.write(Data(bytes), to: file)
        } catch {
            throw StoreError(description: "cannot write \(file.path): \(ToolError.describe(error))")
        }
    }
}

/// A results store on an HTTP server speaking Bazel's remote-cache protocol: GET and PUT of `ac/<key>` and
/// `cas/<sha256>` below its URL. A user and password in the URL are sent as Basic authentication.
struct HTTPStore: ResultsStore {
    let base: URL
    /// Its own session: one that follows no redirect (a redirect would carry the credentials to another
    /// host, and URLSession drops a PUT's body on a 307).
    private let session = URLSession(configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)
    /// Seconds a request may take, whole: a server that trickles its answer is given up as one that is silent.
    var timeout: TimeInterval = 10

    var location: String {
        var parts = URLComponents(url: base, resolvingAgainstBaseURL: false)
        if parts?.password != nil { parts?.password = "***" }
        var text = parts?.string ?? base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func get(_ path: String) throws -> [UInt8]? {
        let (status, body) = try send("GET", path, body: nil)
        switch status {
        case 200: return body
        case 404: return nil
        default: throw StoreError(description: "GET \(location)/\(path) answered \(Self.describe(status))")
        }
    }

    func put(_ path: String, _ bytes: [UInt8]) throws {
        let (status, _) = try send("PUT", path, body: bytes)
        guard (200..<300).contains(status) else { throw StoreError(description: "PUT \(location)/\(path) answered \(Self.describe(status))") }
    }

    private static func describe(_ status: Int) -> String {
        (300..<400).contains(status) ? "\(status), a redirect, which componentctl does not follow: give the cache's final URL" : "\(status)"
    }

    private func send(_ method: String, _ path: String, body: [UInt8]?) throws -> (Int, [UInt8]) {
        var request = URLRequest(url: base.appendingPathComponent(path), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        if let user = base.user {
            let credentials = Data("\(user.removingPercentEncoding ?? user):\(base.password?.removingPercentEncoding ?? "")".utf8)
            request.setValue("Basic \(credentials.base64EncodedString())", forHTTPHeaderField: "Authorization")
        }
        let answer = Mutex<Result<(Int, [UInt8]), StoreError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let result: Result<(Int, [UInt8]), StoreError>
            if let error {
                let code = (error as? URLError)?.code
                let unreachable = [.cannotConnectToHost, .cannotFindHost, .timedOut, .networkConnectionLost, .notConnectedToInternet].contains(code)
                let reason = code == .timedOut ? timedOut : Self.reason(of: error)
                result = .failure(StoreError(description: "\(method) \(location)/\(path) failed: \(reason)", unreachable: unreachable))
            } else {
                result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data ?? Data())))
            }
            answer.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        // URLSession's own timeout restarts at every byte (and is 60 s on Linux whatever the request says).
        guard done.wait(timeout: .now() + timeout) == .success, let result = answer.withLock({ $0 }) else {
            task.cancel()
            throw StoreError(description: "\(method) \(location)/\(path) failed: \(timedOut)", unreachable: true)
        }
        return try result.get()
    }

    /// Answers every redirect with "do not follow", so the 3xx itself comes back.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private var timedOut: String { "no whole answer within \(Int(timeout)) s" }

    /// The transport's words for a failure, without Foundation's "The operation could not be completed" wrapping.
    private static func reason(of error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost: return "unknown host"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network"
        case .badServerResponse: return "not an HTTP answer"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            return "TLS failed (\(error.code.rawValue))"
        default: return "\(error.localizedDescription) (URL error \(error.code.rawValue))"
        }
    }
}
