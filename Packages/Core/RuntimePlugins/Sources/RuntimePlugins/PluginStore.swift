public import Foundation
import Glibc
import PluginFeed

/// The installed runtime plugins on disk, under the App's data folder:
///
///     plugins/state.json                  which version of each plugin loads (the commit point)
///     plugins/versions/<id>/<version>/    manifest.json, manifest.sig and the library, as verified
///     plugins/staging/                    downloads and unpacked folders before their rename
///     plugins/lock                        held (flock) by whoever changes the store
///
/// Every change stages, fsyncs and renames, and only then rewrites `state.json` (temp file, fsync,
/// rename). A kill at any moment leaves either the old state or the new one; folders no state names are
/// removed at the next change, so a half-written version is never loaded.
public struct PluginStore: Sendable {
    /// The store's folder.
    public let folder: URL
    /// Called at each named step of a change; the kill tests stop the process there.
    let checkpoint: @Sendable (String) -> Void

    /// A store in `folder`; `checkpoint` hears each step of a change (fault injection).
    public init(folder: URL, checkpoint: @escaping @Sendable (String) -> Void = { _ in }) {
        self.folder = folder
        self.checkpoint = checkpoint
    }

    var stateURL: URL { folder.appendingPathComponent("state.json") }
    var versionsFolder: URL { folder.appendingPathComponent("versions") }
    var stagingFolder: URL { folder.appendingPathComponent("staging") }

    /// The folder of `id` at `version`.
    public func versionFolder(_ id: String, _ version: String) -> URL {
        versionsFolder.appendingPathComponent(id).appendingPathComponent(version)
    }

    /// The state as it is on disk (empty when the store is new).
    func readState() throws -> StoreState {
        guard let data = FileManager.default.contents(atPath: stateURL.path) else { return StoreState() }
        do {
            return try JSONDecoder().decode(StoreState.self, from: data)
        } catch {
            throw FeedError(
                "\(stateURL.path) is damaged (\(error.localizedDescription)). Delete the folder \(folder.path) and install the plugins again.")
        }
    }

    /// Runs `body` on the state while holding the store's lock, writes the state back if it changed, and
    /// removes what the state no longer names. Everything that writes into the store runs in here, so
    /// one process never removes what another is about to name.
    func change<T>(_ body: (inout StoreState) throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FeedError("cannot open the plugin store's lock in \(folder.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FeedError("cannot lock the plugin store: \(String(cString: strerror(errno)))") }
        }
        let before = try readState()
        var state = before
        let result = try body(&state)
        if state != before { try write(state) }
        removeUnused(keeping: state)
        return result
    }

    private func write(_ state: StoreState) throws {
        checkpoint("state-write")
        try Self.writeAtomically(try FeedJSON.encode(state), to: stateURL)
        checkpoint("state-written")
    }

    /// Puts a verified plugin's files at their version folder (staged, fsynced, renamed); the state does
    /// not name it yet. Call it inside ``change(_:)``.
    func add(_ plugin: VerifiedPlugin) throws {
        let target = versionFolder(plugin.manifest.id, plugin.manifest.version)
        if FileManager.default.fileExists(atPath: target.path) {
            // Left by an install the state never recorded, or an earlier copy: replaced, never trusted.
            try FileManager.default.removeItem(at: target)
        }
        try FileManager.default.createDirectory(at: stagingFolder, withIntermediateDirectories: true)
        let staged = stagingFolder.appendingPathComponent("\(plugin.manifest.id)-\(plugin.manifest.version)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: false)
        var renamed = false
        defer { if !renamed { try? FileManager.default.removeItem(at: staged) } }
        for (name, data) in [
            (PluginArchive.manifestName, plugin.manifestData), (PluginArchive.signatureName, plugin.signature), (plugin.manifest.library, plugin.library),
        ] {
            try Self.writeSynced(data, to: staged.appendingPathComponent(name))
            checkpoint("unpacked \(name)")
        }
        try Self.syncFolder(staged)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        checkpoint("rename")
        guard rename(staged.path, target.path) == 0 else {
            throw FeedError("cannot move the plugin into \(target.path): \(String(cString: strerror(errno)))")
        }
        renamed = true
        try Self.syncFolder(target.deletingLastPathComponent())
        checkpoint("renamed")
    }

    /// Removes version folders and staging leftovers that `state` does not name.
    private func removeUnused(keeping state: StoreState) {
        let manager = FileManager.default
        try? manager.removeItem(at: stagingFolder)
        for id in (try? manager.contentsOfDirectory(atPath: versionsFolder.path)) ?? [] {
            let kept = state.plugins[id]?.kept ?? []
            for version in (try? manager.contentsOfDirectory(atPath: versionsFolder.appendingPathComponent(id).path)) ?? [] where !kept.contains(version) {
                try? manager.removeItem(at: versionFolder(id, version))
            }
            if kept.isEmpty { try? manager.removeItem(at: versionsFolder.appendingPathComponent(id)) }
        }
    }

    /// The installed files of `id` at `version`, checked again as at install: a trusted signature, the
    /// library's hash. Catches a store changed on disk after install.
    func installed(_ id: String, _ version: String, keys: TrustedKeys) throws -> (manifest: PluginManifest, library: URL) {
        let folder = versionFolder(id, version)
        guard let manifestData = FileManager.default.contents(atPath: folder.appendingPathComponent(PluginArchive.manifestName).path),
            let signature = FileManager.default.contents(atPath: folder.appendingPathComponent(PluginArchive.signatureName).path)
        else { throw FeedError("the installed files of \(id) \(version) are missing") }
        try keys.verify(manifestData, signature: signature, what: "the installed manifest of \(id) \(version)")
        let manifest = try PluginManifest.decode(manifestData, what: "the installed manifest of \(id) \(version)")
        guard manifest.id == id, manifest.version == version else { throw FeedError("the folder of \(id) \(version) holds \(manifest.id) \(manifest.version)") }
        let library = folder.appendingPathComponent(manifest.library)
        guard try Digest.sha256(fileAt: library) == manifest.sha256 else {
            throw FeedError("the installed library of \(id) \(version) was changed on disk since it was verified")
        }
        return (manifest, library)
    }

    /// Writes `data` to `url` through a temporary file in the same folder: fsync, rename, fsync the folder.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try writeSynced(data, to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw FeedError("cannot write \(url.path): \(reason)")
        }
        try syncFolder(url.deletingLastPathComponent())
    }

    static func writeSynced(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        try data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }
        guard fsync(descriptor) == 0 else { throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
    }

    static func syncFolder(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fsync(descriptor)
    }
}
