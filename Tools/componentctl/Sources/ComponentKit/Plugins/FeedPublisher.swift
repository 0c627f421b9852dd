public import Foundation
public import PluginFeed

/// `componentctl plugin publish` and `verify`: a feed is a folder any static HTTP server can serve:
///
///     index.json, index.sig              every plugin, every version, its archive, size and hash (signed)
///     plugins/<id>/<id>-<version>.tar    the archives
public enum FeedPublisher {
    /// Adds the archives at `archives` to the feed in `feed` (made when missing), signed with `key`.
    ///
    /// Every archive is checked against the feed before anything is written, so a refusal leaves the feed as it was;
    /// the archives are then written, and the index and its signature once, with one new sequence.
    public static func publish(archives: [URL], feed: URL, key: PluginSigningKey) throws -> String {
        let keys = try TrustedKeys([key.publicKey])
        let plugins = try archives.map { try verifiedArchive($0, keys: keys) }
        // One publisher at a time: the index is read, extended and signed as one step.
        try FileStatus.createFolder(feed, purpose: "the feed")
        let lock = open(feed.appendingPathComponent(".publish.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw ToolError("Cannot lock the feed \(feed.path): \(String(cString: strerror(errno))).", status: .environment) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ToolError("Cannot lock the feed \(feed.path): \(String(cString: strerror(errno))).", status: .environment) }
        }
        try completeInterruptedPublish(feed, keys: keys)
        for name in [FeedIndex.fileName, FeedIndex.signatureName, pendingSignatureName] {
            AtomicFile.removeStaleTemporaries(of: feed.appendingPathComponent(name))
        }
        var index = try existingIndex(feed, keys: keys) ?? FeedIndex()
        var lines: [String] = []
        var added: [(relative: String, data: Data, manifest: PluginManifest)] = []
        for (archive, data, plugin) in plugins {
            let manifest = plugin.manifest
            let relative = "plugins/\(manifest.id)/\(manifest.id)-\(manifest.version).tar"
            let release = FeedIndex.Release(version: manifest.version, archive: relative, size: data.count, sha256: Digest.sha256(data), manifest: manifest)
            if let published = index.release(manifest.id, manifest.version) {
                guard published.sha256 != release.sha256 else {
                    // Named twice on this command line: published once.
                    if !added.contains(where: { $0.relative == relative }) {
                        lines.append("\(manifest.id) \(manifest.version) is already in the feed; nothing changed.")
                    }
                    continue
                }
                let earlier = added.contains { $0.relative == relative } ? "another archive named on this command line" : "the feed"
                throw ToolError(
                    "\(archive.lastPathComponent): \(manifest.id) \(manifest.version) is already in \(earlier) with other bytes; nothing was published. "
                        + "A published version never changes (Apps may have it): release a new version and publish that.", status: .usage)
            }
            try refuseOverlaps(manifest, in: index)
            index.plugins[manifest.id, default: []].append(release)
            added.append((relative, data, manifest))
        }
        guard !added.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        for id in Set(added.map(\.manifest.id)) {
            index.plugins[id]?.sort { (PluginVersion($0.version)?.parts ?? []).lexicographicallyPrecedes(PluginVersion($1.version)?.parts ?? []) }
        }
        guard index.sequence < Int.max else {
            throw ToolError(
                "The feed's index is at the largest sequence (\(index.sequence)); it cannot be published to again. Start a new feed.", status: .usage)
        }
        index.sequence += 1
        // The archives first, then the index, then its signature: a reader sees either the old pair, or
        // a new index whose signature lags for an instant (Apps read the pair twice before giving up).
        for archive in added {
            let url = feed.appendingPathComponent(archive.relative)
            try FileStatus.createFolder(url.deletingLastPathComponent(), purpose: "the feed's archives")
            AtomicFile.removeStaleTemporaries(of: url)
            try AtomicFile.write(archive.data, to: url)
        }
        // The new signature waits beside the feed until the index it signs is in place, then takes the old one's place:
        // a publish killed between the two leaves what the next one completes (``completeInterruptedPublish``).
        let indexData = try FeedJSON.encode(index)
        try AtomicFile.write(try key.sign(indexData), to: feed.appendingPathComponent(pendingSignatureName))
        try AtomicFile.write(indexData, to: feed.appendingPathComponent(FeedIndex.fileName))
        try completeInterruptedPublish(feed, keys: keys)
        lines += added.map { "Published \($0.manifest.id) \($0.manifest.version) to \(feed.path) (index sequence \(index.sequence))." }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The archive at `archive`, read and verified against `keys`.
    /// Refuses `manifest` when one of its routes matches a URL that a route of another plugin in `index`
    /// matches: the App would refuse whichever of the two loads second.
    private static func refuseOverlaps(_ manifest: PluginManifest, in index: FeedIndex) throws {
        for (id, releases) in index.plugins.sorted(by: { $0.key < $1.key }) where id != manifest.id {
            for release in releases {
                for route in manifest.routes {
                    guard let other = release.manifest.routes.first(where: { RouteShape.overlaps(route, $0) }) else { continue }
                    throw ToolError(
                        "\(manifest.id) \(manifest.version) is not published: its route '\(route)' matches URLs that '\(other)' of \(id) \(release.version) "
                            + "in the feed matches, so an App could load only one of them. Give one plugin routes of its own and release it again.",
                        status: .findings)
                }
            }
        }
    }

    private static func verifiedArchive(_ archive: URL, keys: TrustedKeys) throws -> (URL, Data, VerifiedPlugin) {
        guard FileStatus.isRegularFile(archive), let data = FileManager.default.contents(atPath: archive.path) else {
            throw ToolError(
                "Cannot read the archive \(archive.path)\(FileStatus.isRealFolder(archive) ? " (it is a folder)" : ""); nothing was published. "
                    + "Make one with 'componentctl plugin pack NAME VERSION'.", status: .usage)
        }
        do {
            return (archive, data, try VerifiedPlugin(archive: data, keys: keys))
        } catch let error as FeedError {
            let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
            let signedByAnother = reason.contains("does not trust") || reason.contains("signature")
            throw ToolError(
                "\(archive.lastPathComponent) cannot be published: \(reason); nothing was published."
                    + (signedByAnother ? " Pack it again with this key." : ""), status: .usage)
        }
    }

    /// The signature of an index being published, until the index is in place.
    static let pendingSignatureName = ".index.sig.next"

    /// Puts a pending signature in place when it signs the feed's index (its publish was stopped between the two
    /// writes), and removes it when it does not (stopped before the index was written).
    static func completeInterruptedPublish(_ feed: URL, keys: TrustedKeys) throws {
        let pending = feed.appendingPathComponent(pendingSignatureName)
        guard let signature = FileManager.default.contents(atPath: pending.path) else { return }
        let index = FileManager.default.contents(atPath: feed.appendingPathComponent(FeedIndex.fileName).path)
        guard let index, (try? FeedIndex.verified(index, signature: signature, keys: keys)) != nil else {
            try FileManager.default.removeItem(at: pending)
            return
        }
        guard rename(pending.path, feed.appendingPathComponent(FeedIndex.signatureName).path) == 0 else {
            throw ToolError("Cannot put the feed's new signature in place: \(String(cString: strerror(errno))).", status: .environment)
        }
    }

    /// The feed's index, checked against `keys`; nil when the feed has none yet.
    static func existingIndex(_ feed: URL, keys: TrustedKeys) throws -> FeedIndex? {
        let indexURL = feed.appendingPathComponent(FeedIndex.fileName)
        guard let data = FileManager.default.contents(atPath: indexURL.path) else { return nil }
        guard let signature = FileManager.default.contents(atPath: feed.appendingPathComponent(FeedIndex.signatureName).path) else {
            throw ToolError("\(indexURL.path) has no \(FeedIndex.signatureName) beside it; restore it, or publish into a new folder.", status: .usage)
        }
        do {
            return try FeedIndex.verified(data, signature: signature, keys: keys)
        } catch let error as FeedError {
            throw ToolError("The feed's index cannot be extended with this key: \(error.message).", status: .usage)
        }
    }

    /// Checks a feed folder or an archive offline against `keys`; returns one line per thing checked.
    public static func verify(_ target: URL, keys: TrustedKeys) throws -> String {
        guard FileStatus.isRealFolder(target) else {
            guard let data = FileManager.default.contents(atPath: target.path) else {
                throw ToolError("There is no file or folder \(target.path).", status: .usage)
            }
            let plugin = try refusing { try VerifiedPlugin(archive: data, keys: keys) }
            return "ok: \(target.lastPathComponent): \(plugin.manifest.id) \(plugin.manifest.version), signature and library hash verified\n"
        }
        guard FileStatus.exists(target.appendingPathComponent(FeedIndex.fileName)) else {
            throw ToolError("\(target.path) holds no \(FeedIndex.fileName): it is no plugin feed.", status: .usage)
        }
        // A missing signature is a failed check like any other (exit 1), not a usage error.
        guard FileStatus.exists(target.appendingPathComponent(FeedIndex.signatureName)) else {
            throw ToolError("Refused: the feed's \(FeedIndex.fileName) has no \(FeedIndex.signatureName) beside it.", status: .findings)
        }
        if let pending = FileManager.default.contents(atPath: target.appendingPathComponent(pendingSignatureName).path),
            let index = FileManager.default.contents(atPath: target.appendingPathComponent(FeedIndex.fileName).path),
            (try? FeedIndex.verified(index, signature: pending, keys: keys)) != nil
        {
            throw ToolError(
                "Refused: the feed's last publish was stopped before its new signature was in place; publish again (any archive) to complete it.",
                status: .findings)
        }
        guard let index = try refusing({ try existingIndex(target, keys: keys) }) else {
            throw ToolError("\(target.path) holds no \(FeedIndex.fileName): it is no plugin feed.", status: .usage)
        }
        var lines = ["ok: index (sequence \(index.sequence)), signature verified"]
        for id in index.plugins.keys.sorted() {
            for release in index.releases(id).reversed() {
                guard let data = FileManager.default.contents(atPath: target.appendingPathComponent(release.archive).path) else {
                    throw ToolError("The index lists \(release.archive), which the feed does not hold.", status: .findings)
                }
                guard data.count == release.size, Digest.sha256(data) == release.sha256 else {
                    throw ToolError("\(release.archive) is not the archive the index describes (size or SHA-256 differ).", status: .findings)
                }
                let plugin = try refusing { try VerifiedPlugin(archive: data, keys: keys) }
                guard plugin.manifest == release.manifest else {
                    throw ToolError("The manifest inside \(release.archive) differs from the one the index lists.", status: .findings)
                }
                lines.append("ok: \(id) \(release.version): archive hash, manifest signature and library hash verified")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FeedError {
            throw ToolError("Refused: \(error.message).", status: .findings)
        }
    }
}
