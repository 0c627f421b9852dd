public import Foundation

/// A feed's index (`index.json`, signed in `index.sig`): every plugin, every version, its archive.
///
/// `sequence` grows with each publish; an App remembers the highest it has seen and refuses a lower one,
/// so an attacker (or a stale mirror) cannot replay an old index to hold back or roll back plugins.
public struct FeedIndex: Codable, Sendable, Equatable {
    /// One published version.
    public struct Release: Codable, Sendable, Equatable {
        /// The version.
        public var version: String
        /// The archive's path, relative to the feed.
        public var archive: String
        /// The archive's size in bytes.
        public var size: Int
        /// The archive's SHA-256, in hex.
        public var sha256: String
        /// The archive's manifest (the same as the one signed inside it).
        public var manifest: PluginManifest

        /// Creates a release entry.
        public init(version: String, archive: String, size: Int, sha256: String, manifest: PluginManifest) {
            self.version = version
            self.archive = archive
            self.size = size
            self.sha256 = sha256
            self.manifest = manifest
        }
    }

    /// The index file's name in the feed.
    public static let fileName = "index.json"
    /// Its signature's name.
    public static let signatureName = "index.sig"

    /// The format's version.
    public var format = 1
    /// Raised by one at every publish.
    public var sequence: Int
    /// Each plugin's versions, oldest first.
    public var plugins: [String: [Release]]

    /// Creates an index.
    public init(sequence: Int = 0, plugins: [String: [Release]] = [:]) {
        self.sequence = sequence
        self.plugins = plugins
    }

    /// The index in `data` after checking `signature` against `keys`; throws naming what is wrong.
    public static func verified(_ data: Data, signature: Data, keys: TrustedKeys) throws -> FeedIndex {
        try SignedDocument.verify(data, signature: signature, keys: keys, sequence: nil, seen: nil, what: "the feed's index")
        let index: FeedIndex = try FeedJSON.decode(data, what: "the feed's index")
        guard index.format == 1 else { throw FeedError("the feed's index is in format \(index.format); this build reads format 1") }
        for (id, releases) in index.plugins {
            for release in releases {
                guard release.manifest.id == id, release.manifest.version == release.version, PluginVersion(release.version) != nil else {
                    throw FeedError("the feed's index lists \(id) \(release.version) with a manifest of \(release.manifest.id) \(release.manifest.version)")
                }
                try release.manifest.validate(what: "the feed's index entry of \(id) \(release.version)")
                guard !release.archive.hasPrefix("/"), !release.archive.split(separator: "/").contains(".."), !release.archive.contains("\\") else {
                    throw FeedError("the feed's index points \(id) \(release.version) at '\(release.archive)', outside the feed")
                }
            }
        }
        return index
    }

    /// The release of `id` at `version`, if published.
    public func release(_ id: String, _ version: String) -> Release? {
        plugins[id]?.first { $0.version == version }
    }

    /// The releases of `id`, newest first.
    public func releases(_ id: String) -> [Release] {
        (plugins[id] ?? []).sorted { (PluginVersion($0.version) ?? PluginVersion("0.0.0")!) > (PluginVersion($1.version) ?? PluginVersion("0.0.0")!) }
    }
}

/// A verified plugin archive: its manifest and library.
public struct VerifiedPlugin: Sendable {
    /// The manifest, signature checked.
    public var manifest: PluginManifest
    /// The manifest's bytes, as signed.
    public var manifestData: Data
    /// The manifest's signature file.
    public var signature: Data
    /// The library, hash checked.
    public var library: Data

    /// Checks an archive offline: a trusted key signed its manifest, the library has the manifest's hash
    /// and size, and it holds nothing else.
    public init(archive data: Data, keys: TrustedKeys) throws {
        let archive = try PluginArchive(decoding: data)
        guard let manifestData = archive.files[PluginArchive.manifestName] else { throw FeedError("the archive has no \(PluginArchive.manifestName)") }
        guard let signature = archive.files[PluginArchive.signatureName] else {
            throw FeedError("the archive has no \(PluginArchive.signatureName): its manifest is unsigned")
        }
        try keys.verify(manifestData, signature: signature, what: "the plugin's manifest")
        let manifest = try PluginManifest.decode(manifestData, what: "the plugin's manifest")
        guard let library = archive.files[manifest.library] else { throw FeedError("the archive lacks the library '\(manifest.library)' its manifest names") }
        let extra = Set(archive.files.keys).subtracting([PluginArchive.manifestName, PluginArchive.signatureName, manifest.library])
        guard extra.isEmpty else { throw FeedError("the archive holds files its manifest does not name: \(FeedError.list(extra.sorted()))") }
        guard library.count == manifest.size, Digest.sha256(library) == manifest.sha256 else {
            throw FeedError("the library's SHA-256 is not the one its signed manifest states: the library was changed after signing")
        }
        self.manifest = manifest
        self.manifestData = manifestData
        self.signature = signature
        self.library = library
    }
}
