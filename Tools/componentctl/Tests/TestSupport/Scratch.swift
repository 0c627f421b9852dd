public import ComponentKit
public import Foundation

/// A temporary copy of a workspace for a test to change freely.
public struct Scratch: Sendable {
    /// The copy's root.
    public let root: URL

    /// The workspace this repository holds (the sample shop), found from this file's place.
    public static let sampleRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// An empty scratch folder named `name`.
    public init(named name: String = "workspace") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-\(UUID().uuidString)/\(name)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A copy of the sample workspace's components.yaml and Packages (without build folders).
    public static func sample() throws -> Scratch {
        let scratch = try Scratch(named: "shop")
        try FileManager.default.copyItem(at: sampleRoot.appendingPathComponent("components.yaml"), to: scratch.root.appendingPathComponent("components.yaml"))
        try copyTree(sampleRoot.appendingPathComponent("Packages"), to: scratch.root.appendingPathComponent("Packages"))
        return scratch
    }

    private static func copyTree(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where !name.hasPrefix(".build") && name != ".swiftpm" {
            let from = source.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: from.path, isDirectory: &isFolder), isFolder.boolValue {
                try copyTree(from, to: destination.appendingPathComponent(name))
            } else {
                try FileManager.default.copyItem(at: from, to: destination.appendingPathComponent(name))
            }
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
        try write(path + "/Package.swift", """
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
