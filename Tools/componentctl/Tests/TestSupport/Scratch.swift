public import ComponentKit
public import Foundation

/// A temporary copy of a workspace for a test to change freely.
public struct Scratch: Sendable {
    /// The copy's root.
    public let root: URL

    /// The workspace this repository holds (the live one a team changes), found from this file's place.
    public static let sampleRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The frozen workspaces of the tool's own tests (Tests/Fixtures).
    public static let fixturesRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The workspace at `root` (a clone a test made, say).
    public init(root: URL) {
        self.root = root
    }

    /// An empty scratch folder named `name`.
    public init(named name: String = "workspace") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-\(UUID().uuidString)/\(name)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A copy of the frozen fixture workspace `Library`: business `shelf` and `reader` with their interfaces,
    /// core `catalog` (allowed to use `cache`) and `cache`, foundation `routing`, `kit` and `values`, and a
    /// root package whose `App` prints the shelf and a book. Every package in it builds and tests in seconds.
    public static func fixture() throws -> Scratch {
        let scratch = try Scratch(named: "library")
        try copyTree(fixturesRoot.appendingPathComponent("Library"), to: scratch.root)
        return scratch
    }

    /// The fixture workspace, committed as a new git repository.
    public static func fixtureRepository() throws -> Scratch {
        let scratch = try fixture()
        try scratch.commitAsNewRepository()
        return scratch
    }

    /// A copy of the live workspace (components.yaml, Packages, the root manifest, App and Tests), for the few
    /// tests of what must hold for any workspace; they never assert what its components are.
    public static func sample() throws -> Scratch {
        let scratch = try Scratch(named: "sample")
        for item in ["components.yaml", "Packages", "Package.swift", "App", "Tests", ".gitignore"] {
            try copyTree(sampleRoot.appendingPathComponent(item), to: scratch.root.appendingPathComponent(item))
        }
        return scratch
    }

    /// Copies `source` without its build output (`.build*` folders, `.swiftpm`).
    static func copyTree(_ source: URL, to destination: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            return try FileManager.default.copyItem(at: source, to: destination)
        }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where !name.hasPrefix(".build") && name != ".swiftpm" {
            try copyTree(source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    /// Writes `text` to `path` under the root, making folders as needed.
    public func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The text of `path` under the root.
    public func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Replaces the first `old` in `path` with `new`; fails when `old` is not there.
    public func replace(in path: String, _ old: String, with new: String) throws {
        let text = try read(path)
        guard let range = text.range(of: old) else { throw ScratchError.notFound(old, path) }
        try write(path, text.replacingCharacters(in: range, with: new))
    }

    /// Creates a minimal package at `path`.
    public func package(_ path: String, name: String) throws {
        try write(
            path + "/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "\(name)", targets: [.target(name: "\(name)")])
            """)
        try write(path + "/Sources/\(name)/\(name).swift", "public struct \(name) {}\n")
    }

    /// Loads the workspace at the root.
    public func load() throws -> Workspace { try WorkspaceLoader.load(root: root) }
}

/// Test setup that did not find what it expected.
public enum ScratchError: Error, CustomStringConvertible {
    case notFound(String, String)
    case failed(String)
    public var description: String {
        switch self {
        case .notFound(let text, let path): "'\(text)' is not in \(path)"
        case .failed(let message): message
        }
    }
}
