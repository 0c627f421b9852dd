public import Foundation

/// components.lock: what each pin resolved to, so a moved tag is caught instead of followed.
public struct PinLock: Codable, Sendable, Equatable {
    /// One pin's resolution.
    public struct Entry: Codable, Sendable, Equatable {
        /// The pinned version.
        public var version: String
        /// The tag it came from.
        public var tag: String
        /// The commit the tag named when pinned.
        public var commit: String
        /// The component's tree at that commit: what the checkout must hold.
        public var tree: String
        /// The checkout folder, relative to the workspace root.
        public var checkout: String
    }

    /// The file's name in the workspace root.
    public static let fileName = "components.lock"

    /// The format's version.
    public var version = 1
    /// The pins, by component name.
    public var pins: [String: Entry] = [:]

    /// Creates an empty lock.
    public init() {}

    /// The lock of the workspace at `root` (empty when there is none).
    public static func load(root: URL) throws -> PinLock {
        let url = root.appendingPathComponent(fileName)
        if FileStatus.isRealFolder(url) {
            throw ToolError("\(fileName) is a folder; componentctl keeps a file there. Move the folder away, then run 'componentctl sync'.", status: .usage)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { return PinLock() }
        let lock: PinLock
        do {
            lock = try JSONDecoder().decode(PinLock.self, from: data)
        } catch {
            throw ToolError(
                "\(fileName) is not a valid lock file (\(JSONOutput.summary(of: error))). "
                    + "Restore it from git (git checkout -- \(fileName)), or delete it and run 'componentctl sync'.", status: .usage)
        }
        guard lock.version == PinLock().version else {
            throw ToolError(
                "\(fileName) is in format \(lock.version); this componentctl reads format \(PinLock().version). "
                    + "Use the componentctl that wrote it, or restore the file from git (git checkout -- \(fileName)).", status: .usage)
        }
        return lock
    }

    /// The lock of `workspace`, every entry checked (``PinCheckout/validate(_:of:in:)``) before anything acts on it.
    public static func loadValidated(_ workspace: Workspace) throws -> PinLock {
        let lock = try load(root: workspace.root)
        for (name, entry) in lock.pins.sorted(by: { $0.key < $1.key }) {
            try PinCheckout.validate(entry, of: name, in: workspace)
        }
        return lock
    }

    /// The file's bytes.
    public func encoded() throws -> [UInt8] { Array(try JSONOutput.string(self).utf8) }
}

/// Where a pinned checkout lives, and whether one can.
///
/// SwiftPM names a path dependency by its folder, and the pinned package's own relative
/// dependencies (`../../Interfaces/UserInterface`) must still reach the live packages. So the
/// checkout keeps the folder name and the depth: `Packages/Business/User` pinned at 1.4.0 lives
/// at `Packages/.pin-user-1.4.0/User`, whose `../../` is `Packages/` as before.
public enum PinLayout {
    /// The checkout path for `component` at `version`, given the pinned manifest's path dependencies.
    public static func checkoutPath(for component: Component, version: String, dependencyPaths: [String]) throws -> String {
        let parts = component.path.split(separator: "/").map(String.init)
        let ups = dependencyPaths.map { path in path.split(separator: "/").prefix { $0 == ".." }.count }.max() ?? 2
        let levels = max(ups, 2)
        guard levels <= parts.count else {
            throw ToolError("Cannot pin '\(component.name)': a dependency path of that release leaves the workspace.", status: .usage)
        }
        guard ups != 1 else {
            let sibling = dependencyPaths.first { $0.split(separator: "/").prefix { $0 == ".." }.count == 1 } ?? "../"
            throw ToolError(
                "Cannot pin '\(component.name)': it depends on the sibling folder '\(sibling)', which a checkout beside "
                    + "its layer folder cannot reach by the same relative path. Pin a version whose dependencies live in other layer folders.", status: .usage)
        }
        let keep = parts.count - levels
        let middle = parts[(keep + 1)..<(parts.count - 1)]
        return (parts[..<keep] + [pinFolderName(component.name, version)] + middle + [parts[parts.count - 1]]).joined(separator: "/")
    }

    /// The folder that holds a pin's checkout: ignored by git (`.pin-*` in .gitignore).
    public static func pinFolderName(_ name: String, _ version: String) -> String { ".pin-\(name)-\(version)" }

    /// The pin folder (the one to delete on unpin) of a checkout path.
    public static func pinFolder(ofCheckout path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        guard let index = parts.firstIndex(where: { $0.hasPrefix(".pin-") }) else { return path }
        return parts[...index].joined(separator: "/")
    }
}
