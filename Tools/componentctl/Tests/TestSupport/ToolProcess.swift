import Foundation

/// Runs the built `componentctl` binary, as a user or CI does.
public enum ToolProcess {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    /// The binary built beside the tests.
    public static func binary() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("componentctl"),
            Bundle.main.bundleURL.appendingPathComponent("componentctl"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "componentctl not built at \(candidates.map(\.path))"])
        }
        return found
    }

    /// Runs `componentctl arguments` in `directory` with `environment` added to the process's own.
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both pipes while the process runs, so a large output cannot fill one and block it.
        let errorData = Mutex<Data>(Data())
        let reader = Thread { errorData.withLock { $0 = stderr.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                      error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}

import Synchronization
