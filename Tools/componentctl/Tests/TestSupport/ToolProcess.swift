import ComponentKit
public import Foundation

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

    /// Runs `componentctl arguments` in `directory` with `environment` added to the process's own. The
    /// results cache is off unless `environment` or the arguments name one: a test never takes another
    /// test's (or the user's) passed results. A run longer than `timeout` seconds is killed and throws.
    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], timeout: Double? = nil
    ) throws -> Result {
        var environment = environment
        if environment["COMPONENTCTL_CACHE"] == nil && !arguments.contains("--cache") { environment["COMPONENTCTL_CACHE"] = "off" }
        let run = try ProcessRunner.run(try binary(), arguments, in: directory, environment: environment, timeout: timeout)
        return Result(status: run.status, output: run.text, error: run.errorText)
    }
}
