import CPluginHost
import Foundation
import PluginFeed

/// What the App offers a runtime plugin: each workspace component it links, by version and by content
/// key, and the Swift runtime it runs on. A plugin built against other content is refused: Swift has no
/// stable ABI on Linux, so "close" is not compatible.
public struct HostAPI: Sendable, Equatable {
    /// Component versions, by component name (the App's generated wiring lists them): said to people.
    public var versions: [String: String]
    /// Component content keys, by component name (the wiring records them): what is compared.
    public var keys: [String: String]
    /// The Swift runtime: the identity (``RuntimeIdentity``) of the `libswiftCore.so` the App runs on.
    public var swiftRuntime: String

    /// Creates a host API.
    public init(versions: [String: String], keys: [String: String], swiftRuntime: String) {
        self.versions = versions
        self.keys = keys
        self.swiftRuntime = swiftRuntime
    }

    /// The host API of this process: `versions`, `keys` and the Swift runtime it loaded.
    public static func current(versions: [String: String], keys: [String: String]) throws -> HostAPI {
        HostAPI(versions: versions, keys: keys, swiftRuntime: try SwiftRuntime.loadedLibraryIdentity())
    }

    /// Why a plugin of `manifest` cannot load here, or nil when it can.
    func incompatibility(of manifest: PluginManifest) -> String? {
        manifest.incompatibility(hostAPI: versions, hostKeys: keys, swiftRuntime: swiftRuntime)
    }
}

/// The Swift runtime library a process runs on.
public enum SwiftRuntime {
    /// The identity of the `libswiftCore.so` this process loaded; throws when the standard library is
    /// linked statically (such an App cannot load plugins: they would bring a second runtime).
    public static func loadedLibraryIdentity() throws -> String {
        // Read from the loaded library's notes in memory: no file is opened on the way to a start.
        var id = [UInt8](repeating: 0, count: 64)
        let length = plugin_host_loaded_build_id("/libswiftCore.so", &id, Int32(id.count))
        if length > 0 { return "gnu-build-id:" + id.prefix(Int(length)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
        guard length == 0 else {
            throw FeedError("this App links Swift's standard library statically, so it cannot load runtime plugins; build it without --static-swift-stdlib")
        }
        // A runtime built without a build ID is known by its file's hash: the process's mappings name the file.
        // Read to the end: /proc files report a size of 0, which whole-file readers trust.
        let maps =
            (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd()).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
            ?? ""
        let path = maps.split(separator: "\n").lazy.compactMap { line in line.split(separator: " ", omittingEmptySubsequences: true).last }
            .first { $0.hasSuffix("/libswiftCore.so") }
        guard let path else { throw FeedError("the Swift runtime library this App runs on cannot be found in its memory map") }
        return try RuntimeIdentity.of(library: URL(fileURLWithPath: String(path)))
    }
}
