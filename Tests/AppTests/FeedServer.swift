import Foundation

/// A fixture a test needs that could not be made.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A folder served over HTTP on loopback by `Tests/AppTests/Fixtures/feed_server.py` (a plugin feed, remote
/// configuration files), misbehaving as `mode` says; stopped by `stop()`.
final class FeedServer: Sendable {
    let process: Process
    let url: String

    /// The file each request's path is appended to.
    let log: URL

    init(_ feed: URL, mode: String = "ok") throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/feed_server.py").standardized
        log = FileManager.default.temporaryDirectory.appendingPathComponent("feed-requests-\(UUID().uuidString).log")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, feed.path, mode, log.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw FixtureError("the feed server did not start")
        }
        self.process = process
        url = "http://127.0.0.1:\(port)/"
    }

    /// The answers so far, in order: the status and the requested path.
    var answers: [(status: Int, path: String)] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let status = Int(parts[0]) else { return nil }
            return (status, String(parts[1]))
        }
    }

    /// The paths requested so far, in order.
    var requests: [String] { answers.map(\.path) }

    /// Stops the server with SIGKILL: a child can inherit a mask that blocks SIGTERM from a test runner's thread.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}
