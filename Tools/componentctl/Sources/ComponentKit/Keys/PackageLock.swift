import Foundation

/// A `Package.resolved`: the version and revision each external package resolved to, which is what a build uses,
/// whatever range its manifest requires.
struct PackageLock: Equatable {
    /// `version revision` (or `branch revision`) by package identity (lower case, as SwiftPM names packages).
    var pins: [String: String]

    /// The lock at `url`, nil when there is none; throws naming a file that is not one.
    static func read(_ url: URL) throws -> PackageLock? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try parse(data, shown: url.lastPathComponent)
    }

    /// The lock in `data` (any of SwiftPM's formats: 1, 2 and 3); throws naming `shown` when it is none.
    static func parse(_ data: Data, shown: String) throws -> PackageLock {
        struct State: Decodable {
            var version: String?
            var branch: String?
            var revision: String?
        }
        struct Pin: Decodable {
            var identity: String?
            var location: String?
            var repositoryURL: String?
            var state: State
        }
        struct Pins: Decodable { var pins: [Pin] }
        struct File: Decodable {
            var pins: [Pin]?
            var object: Pins?
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), let pins = file.pins ?? file.object?.pins else {
            throw ToolError(
                "\(shown) is not a Package.resolved SwiftPM wrote (no 'pins'); restore it, or let `swift package resolve` write it again.", status: .usage)
        }
        var result: [String: String] = [:]
        for pin in pins {
            guard let identity = pin.identity ?? (pin.repositoryURL ?? pin.location).map(PackageDependency.identity(ofURL:)) else { continue }
            let state = pin.state
            result[identity.lowercased()] = [state.version ?? state.branch ?? "-", state.revision ?? "-"].joined(separator: " ")
        }
        return PackageLock(pins: result)
    }
}
