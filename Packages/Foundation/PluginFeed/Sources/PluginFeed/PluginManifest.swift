public import Foundation

/// What a runtime plugin's archive says about the library it carries; signed by the publisher.
public struct PluginManifest: Codable, Sendable, Hashable {
    /// One contribution to an extension point.
    public struct Contribution: Codable, Sendable, Hashable {
        /// The extension point, `<interface>/<point>`.
        public var point: String
        /// The plugin definition's id.
        public var plugin: String

        /// Creates a contribution.
        public init(point: String, plugin: String) {
            self.point = point
            self.plugin = plugin
        }
    }

    /// The format's version.
    public var format: Int = 1
    /// The plugin's id: its component's name.
    public var id: String
    /// The released version.
    public var version: String
    /// The C symbol the App calls after loading the library.
    public var entry: String
    /// The library's file name inside the archive.
    public var library: String
    /// The library's SHA-256, in hex.
    public var sha256: String
    /// The library's size in bytes.
    public var size: Int
    /// The contributions to extension points the plugin may make.
    public var contributions: [Contribution]
    /// The route patterns the plugin may register.
    public var routes: [String]
    /// The exact version of every workspace component the library was built against: the host API it needs.
    public var hostAPI: [String: String]
    /// The content key of each of those components (`componentctl hash`'s, of content alone): what the App
    /// compares, so a change released under no new version is told apart. Nil in a manifest packed before keys.
    public var hostKeys: [String: String]?
    /// The Swift compiler that built it, as `swift --version` names it (for people).
    public var swift: String
    /// The identity of the `libswiftCore.so` it was linked against (``RuntimeIdentity``): Swift has no
    /// stable ABI on Linux, so the App loads it only on exactly that runtime.
    public var swiftRuntime: String

    /// Creates a manifest.
    public init(
        id: String, version: String, entry: String, library: String, sha256: String, size: Int, contributions: [Contribution], routes: [String],
        hostAPI: [String: String], hostKeys: [String: String]?, swift: String, swiftRuntime: String
    ) {
        self.id = id
        self.version = version
        self.entry = entry
        self.library = library
        self.sha256 = sha256
        self.size = size
        self.contributions = contributions
        self.routes = routes
        self.hostAPI = hostAPI
        self.hostKeys = hostKeys
        self.swift = swift
        self.swiftRuntime = swiftRuntime
    }

    /// The manifest's bytes as written into an archive: sorted keys, so the same manifest signs the same.
    public func encoded() throws -> Data { try FeedJSON.encode(self) }

    /// Reads a manifest; throws ``FeedError`` naming what is wrong.
    public static func decode(_ data: Data, what: String) throws -> PluginManifest {
        let manifest: PluginManifest = try FeedJSON.decode(data, what: what)
        try manifest.validate(what: what)
        return manifest
    }

    /// Throws naming what no App accepts: another format, an id or version of the wrong shape, a library
    /// name that could leave its folder.
    public func validate(what: String) throws {
        guard format == 1 else { throw FeedError("\(what) is in format \(format); this build reads format 1. Update the App.") }
        guard PluginID.isValid(id) else { throw FeedError("\(what) names the plugin '\(id)', which is no valid plugin id.") }
        guard PluginVersion(version) != nil else { throw FeedError("\(what) has the version '\(version)', which is no version like 1.2.0.") }
        guard PluginID.isSafeFileName(library) else { throw FeedError("\(what) names the library '\(library)', which is no plain file name.") }
        guard size >= 0 else { throw FeedError("\(what) gives the library's size as \(size) bytes, which no file has.") }
    }

    /// Why an App with the component versions `host` and content keys `keys` on the Swift runtime `runtime` (the
    /// identity of its libswiftCore.so) cannot load this plugin, or nil when it can: every component the plugin was
    /// built against must be in the App with the same content key (its version label is only said), and the
    /// runtime the same.
    public func incompatibility(hostAPI host: [String: String], hostKeys keys: [String: String], swiftRuntime runtime: String) -> String? {
        var reasons: [String] = []
        if swiftRuntime != runtime { reasons.append("built with Swift \(swift), whose runtime is not the one the App runs on") }
        guard let hostKeys else {
            return (reasons + ["packed without content keys (by an older componentctl), so the App cannot tell what it was built against: pack it again"])
                .joined(separator: "; ")
        }
        for (component, version) in hostAPI.sorted(by: { $0.key < $1.key }) {
            guard let have = host[component] else {
                reasons.append("built against \(component) \(version), which the App does not have")
                continue
            }
            let built = hostKeys[component], own = keys[component]
            guard let built, let own else {
                reasons.append(
                    built == nil
                        ? "its manifest has no content key of \(component)"
                        : "the App records no content key of \(component) (its wiring was generated outside a git repository, or before keys: "
                            + "run componentctl sync in the workspace's repository and build it again)")
                continue
            }
            if built != own {
                reasons.append(
                    "built against \(component) \(version) with content \(built.prefix(12)), the App has \(component) \(have) with content "
                        + "\(own.prefix(12)): one was built from changes the other lacks (changed under the same version, or not committed)")
            }
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}

/// Plugin ids and file names as the feed allows them: nothing that could leave a folder.
public enum PluginID {
    /// Whether `id` is lower-case letters, digits and dashes, starting with a letter (a component name).
    public static func isValid(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first), id.count <= 64 else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Whether `name` is a plain file name: no slash, not `.` or `..`, printable ASCII.
    public static func isSafeFileName(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != "..", name.count <= 100 else { return false }
        return name.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 && $0 != "/" && $0 != "\\" }
    }
}

/// A plugin's version: `MAJOR.MINOR.PATCH`, compared numerically.
public struct PluginVersion: Comparable, Sendable, Hashable, CustomStringConvertible {
    /// The three numbers.
    public let parts: [Int]

    /// Parses `1.2.3`; nil for anything else.
    public init?(_ text: String) {
        let words = text.split(separator: ".", omittingEmptySubsequences: false)
        // Digits only, no leading zero: `01.2.0` or `+1.2.0` would compare equal to another spelling.
        guard words.count == 3,
            words.allSatisfy({ word in
                !word.isEmpty && word.count <= 9 && word.allSatisfy(\.isASCII) && word.allSatisfy(\.isNumber) && (word == "0" || word.first != "0")
            })
        else { return nil }
        self.parts = words.compactMap { Int($0) }
    }

    public var description: String { parts.map(String.init).joined(separator: ".") }

    public static func < (lhs: PluginVersion, rhs: PluginVersion) -> Bool { lhs.parts.lexicographicallyPrecedes(rhs.parts) }
}

/// A feed's or a plugin's problem, said so a user knows what to do.
public struct FeedError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// `names` for a message: the first ten, then how many more, so a hostile list never makes a huge message.
    public static func list(_ names: [String]) -> String {
        let shown = names.prefix(10).joined(separator: ", ")
        return names.count > 10 ? "\(shown) and \(names.count - 10) more" : shown
    }
}

/// The JSON the feed writes: sorted keys, no escaped slashes, so bytes are stable.
public enum FeedJSON {
    /// Encodes `value`.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }

    /// Decodes `data`; `what` names it in the error.
    public static func decode<T: Decodable>(_ data: Data, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw FeedError("\(what) is not valid: \(summary(of: error, in: data)).")
        }
    }

    private static func summary(of error: DecodingError, in data: Data) -> String {
        switch error {
        case .dataCorrupted(let context): context.codingPath.isEmpty ? notJSON(data) : "bad value at \(path(context.codingPath))"
        case .keyNotFound(let key, let context): "'\(path(context.codingPath + [key]))' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "'\(path(context.codingPath))' has the wrong type"
        @unknown default: "unreadable"
        }
    }

    /// What bytes that are no JSON look like: an HTML page (a server's error or login page, a wrong URL) or their start.
    private static func notJSON(_ data: Data) -> String {
        let text = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return "not JSON (it is empty)" }
        if text.hasPrefix("<") { return "not JSON but an HTML page (a server's error page, or a URL that names no feed?)" }
        let start = String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).map { (32..<127).contains($0.value) ? $0 : "?" }))
        return "not JSON (it starts with '\(start)')"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
