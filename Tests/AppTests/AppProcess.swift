import Foundation

/// Runs the built `App` binary the way a user or a script does: arguments, a pipe for input, a data folder.
struct AppProcess {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// A fresh data folder, so every test starts with an empty database.
    let dataDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("app-tests-\(UUID())")
    var environment: [String: String] = [:]

    static var binary: URL {
        get throws {
            // `swift test` runs from the build folder's products; the App executable is built beside the tests.
            let candidates = [
                Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("App"),
                Bundle.main.bundleURL.appendingPathComponent("App"),
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/App").standardized,
            ]
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "App binary not found in \(candidates.map(\.path))"])
            }
            return found
        }
    }

    func run(_ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = try Self.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHOP_DATA_DIR"] = dataDirectory.path
        environment.merge(self.environment) { _, new in new }
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }

    /// The components named in the workspace's components.yaml (keys under `components:`).
    static func componentNames() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("components.yaml"), encoding: .utf8)
        var names = Set<String>()
        var inComponents = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.hasPrefix("#") && !line.isEmpty { inComponents = line.hasPrefix("components:") }
            guard inComponents, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else { continue }
            names.insert(line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ":", with: ""))
        }
        return names
    }
}
