public import Foundation
public import PluginFeed

/// Signed runtime plugin archives made without building anything, for the feed's tests.
public enum PluginArchiveFixture {
    /// Writes to `url` an archive of the plugin `id` (declaring `routes`) at `version` whose library holds
    /// `library`, signed by `signer`.
    public static func write(
        id: String = "badge", version: String, routes: [String] = [], library: Data, signer: PluginSigningKey, to url: URL
    ) throws {
        let manifest = PluginManifest(
            id: id, version: version, entry: "\(id)_plugin_entry", library: "libBadge.so", sha256: Digest.sha256(library), size: library.count,
            contributions: [.init(point: "shelf-interface/badges", plugin: id)], routes: routes, hostAPI: ["routing": "1.0.0"],
            hostKeys: ["routing": "routing-content"], swift: "6.3.1",
            swiftRuntime: "x")
        let data = try manifest.encoded()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PluginArchive(files: [PluginArchive.manifestName: data, PluginArchive.signatureName: try signer.sign(data), "libBadge.so": library])
            .encoded().write(to: url)
    }
}
