import Foundation
import Testing

/// Runs a built app the way a user or a script does: arguments, a pipe for input, a data folder. The app
/// is the one `componentctl test --app NAME` names (COMPONENTCTL_APP, COMPONENTCTL_APP_PRODUCT), else the workspace's first.
struct AppProcess {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// A fresh data folder, so every test starts with an empty database.
    var dataDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("app-tests-\(UUID())")
    var environment: [String: String] = [:]
    /// The executable product to run.
    var product = Self.productUnderTest

    /// The app the suite tests: the one componentctl names, else the workspace's first.
    static let appUnderTest = ProcessInfo.processInfo.environment["COMPONENTCTL_APP"]
    /// How `componentctl list --apps` describes it.
    static let described = Swift.Result { try description(ofApp: appUnderTest) }
    static let productUnderTest = ProcessInfo.processInfo.environment["COMPONENTCTL_APP_PRODUCT"] ?? (try? described.get().product) ?? "App"

    /// The environment variable of the shell's setting `name` (`DATA_DIR`), under the workspace's settings prefix.
    static func setting(_ name: String) -> String { "\((try? described.get().settingsPrefix) ?? "APP")_\(name)" }

    /// The built executable of `product`.
    static func binary(_ product: String) throws -> URL {
        // `swift test` runs from the build folder's products; the apps' executables are built beside the tests.
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(product),
            Bundle.main.bundleURL.appendingPathComponent(product),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/\(product)").standardized,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(product) binary not found in \(candidates.map(\.path))"])
        }
        return found
    }

    /// The App process for `arguments`, not started: this data folder and environment.
    func process(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try Self.binary(product)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[Self.setting("DATA_DIR")] = dataDirectory.path
        environment.merge(self.environment) { _, new in new }
        process.environment = environment
        return process
    }

    func run(_ arguments: [String], input: String = "") throws -> Result {
        let process = try process(arguments)
        // Standard error goes to a file and input is written on a thread of its own, so neither a chatty
        // App nor a long script can fill a pipe that nobody reads.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("app-stderr-\(UUID())")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stdin = Pipe(), stdout = Pipe(), stderr = try FileHandle(forWritingTo: errorFile)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stderr.close()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }

    /// The components of the app under test (of the workspace, when no app is named), as `componentctl list
    /// --format json` names them (the tool is the one reader of components.yaml; it is built first when it is
    /// not there yet).
    static func componentNames() throws -> Set<String> {
        try componentNames(ofApp: appUnderTest)
    }

    /// The components `app` links, or every component of the workspace.
    static func componentNames(ofApp app: String?) throws -> Set<String> {
        let json = try componentctl(["list", "--format", "json", "--root", root.path] + (app.map { ["--app", $0] } ?? []))
        guard let rows = try JSONSerialization.jsonObject(with: json) as? [[String: Any]] else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "componentctl list --format json printed no list"])
        }
        return Set(rows.compactMap { $0["name"] as? String })
    }

    /// What the workspace says of an app.
    struct Description: Sendable, Decodable {
        var name: String
        var product: String
        var settingsPrefix: String
        var scheme: String
        var start: String?
    }

    /// The app `name` (nil: the first) as `componentctl list --apps --format json` describes it.
    static func description(ofApp name: String?) throws -> Description {
        let apps = try JSONDecoder().decode([Description].self, from: componentctl(["list", "--apps", "--format", "json", "--root", root.path]))
        guard let app = name.map({ name in apps.first { $0.name == name } }) ?? apps.first else {
            throw CocoaError(.coderValueNotFound, userInfo: [NSLocalizedDescriptionKey: "components.yaml declares no app \(name ?? "")"])
        }
        return app
    }

    /// The workspace's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What `componentctl arguments` prints; the tool is built first when it is not there yet.
    /// The apps of the workspace: name and product.
    static func apps() throws -> [String: String] {
        let json = try componentctl(["list", "--apps", "--format", "json", "--root", root.path])
        guard let rows = try JSONSerialization.jsonObject(with: json) as? [[String: Any]] else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "componentctl list --apps --format json printed no list"])
        }
        return Dictionary(rows.compactMap { row in (row["name"] as? String).flatMap { name in (row["product"] as? String).map { (name, $0) } } }) { a, _ in a }
    }

    static func componentctl(_ arguments: [String]) throws -> Data {
        let tool = root.appendingPathComponent("Tools/componentctl/.build/debug/componentctl")
        if !FileManager.default.isExecutableFile(atPath: tool.path) {
            _ = try capture(
                "/usr/bin/env", ["swift", "build", "--package-path", root.appendingPathComponent("Tools/componentctl").path, "--product", "componentctl"])
        }
        return try capture(tool.path, arguments)
    }

    /// Standard output of a program that prints little to standard error (which goes to this process's own).
    static func capture(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"])
        }
        return data
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when the workspace has every one of `components`: a test of a feature is skipped,
    /// saying why, in a copy of the template that removed the feature, instead of failing there.
    static func requires(_ components: String...) -> Self {
        .enabled("needs the components \(components.joined(separator: ", "))") {
            try AppProcess.componentNames().isSuperset(of: components)
        }
    }

    /// Runs the test only when the workspace declares the app `name` and has every one of `components`
    /// (in that app or not).
    static func requiresApp(_ name: String, workspaceHas components: String...) -> Self {
        .enabled("needs the app \(name) and the components \(components.joined(separator: ", "))") {
            try AppProcess.apps()[name] != nil && AppProcess.componentNames(ofApp: nil).isSuperset(of: components)
        }
    }
}

/// A signing key pair made once per test run with `componentctl plugin keygen`: the private key's file,
/// and the public key the App is told to trust.
struct TestSigningKey: Sendable {
    let file: URL
    let publicKey: String

    static let shared = Result { try TestSigningKey() }

    /// A new key pair in a temporary folder.
    init() throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("test-signing-\(UUID().uuidString).key")
        let output = String(decoding: try AppProcess.componentctl(["plugin", "keygen", "--key", file.path]), as: UTF8.self)
        guard let last = output.split(separator: "\n").last else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "componentctl plugin keygen printed no key"])
        }
        publicKey = String(last)
    }
}

extension AppProcess {
    /// This App set to trust the shared test key for external links and to sign with it (`App sign`).
    func signingLinks() throws -> AppProcess {
        let key = try TestSigningKey.shared.get()
        var app = self
        app.environment[Self.setting("LINK_KEYS")] = key.publicKey
        app.environment[Self.setting("LINK_SIGNING_KEY")] = key.file.path
        return app
    }
}
