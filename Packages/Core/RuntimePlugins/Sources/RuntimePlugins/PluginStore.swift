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
    /// one process never removes what another is about to name. Throws ``StoreUnwritable`` when the
    /// folder cannot be written.
    func change<T>(_ body: (inout StoreState) throws -> T) throws -> T {
        try makeFolder(folder)
        let descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreUnwritable(folder: folder, reason: String(cString: strerror(errno))) }
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

    /// Creates `url` and the folders above it, as `mkdir -p`; throws ``StoreUnwritable`` with the reason.
    func makeFolder(_ url: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw StoreUnwritable(folder: url, reason: "it is a file, not a folder") }
            return
        }
        try makeFolder(url.deletingLastPathComponent())
        guard mkdir(url.path, 0o755) == 0 || errno == EEXIST else { throw StoreUnwritable(folder: url, reason: String(cString: strerror(errno))) }
    }

    private func write(_ state: StoreState) throws {
        checkpoint("state-write")
        try AtomicFile.write(try FeedJSON.encode(state), to: stateURL)
        checkpoint("state-written")
    }

    /// A new download file for the archive whose SHA-256 is `sha256`, named for this process and
    /// locked while it lives.
    func downloadFile(named sha256: String) throws -> DownloadFile {
        let downloads = folder.appendingPathComponent("downloads")
        try makeFolder(downloads)
        let url = downloads.appendingPathComponent("\(sha256)-\(getpid()).part")
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreUnwritable(folder: downloads, reason: String(cString: strerror(errno))) }
        _ = flock(descriptor, LOCK_EX)
        return DownloadFile(url: url, lock: descriptor)
    }

    /// The index fetched last, if any (a cache: its signature and sequence are checked by the reader).
    func lookupCopy() -> IndexCopy? {
        FileManager.default.contents(atPath: lookupCopyURL.path).flatMap { try? JSONDecoder().decode(IndexCopy.self, from: $0) }
    }

    /// Keeps `copy` as the index fetched last; a cache, so a failure to write it is no error and it is not synced.
    func keepLookupCopy(_ copy: IndexCopy) {
        keepCache(copy, at: lookupCopyURL)
    }

    /// The last failure of a lookup, if any (a cache: the reader judges its age).
    func lookupFailure() -> LookupFailure? {
        FileManager.default.contents(atPath: lookupFailureURL.path).flatMap { try? JSONDecoder().decode(LookupFailure.self, from: $0) }
    }

    /// Keeps `failure` as the last failure of a lookup (nil: the feed answered), so a later run does not wait for a dead feed again.
    func keepLookupFailure(_ failure: LookupFailure?) {
        guard let failure else {
            try? FileManager.default.removeItem(at: lookupFailureURL)
            return
        }
        keepCache(failure, at: lookupFailureURL)
    }

    private func keepCache(_ value: some Encodable, at url: URL) {
        guard (try? makeFolder(folder)) != nil, let data = try? JSONEncoder().encode(value) else { return }
        // A cache: a failed or lost write only means asking the feed again.
        try? AtomicFile.write(data, to: url, durable: false)
    }

    private var lookupCopyURL: URL { folder.appendingPathComponent("lookup-index.json") }
    private var lookupFailureURL: URL { folder.appendingPathComponent("lookup-failure.json") }

    /// Puts a verified plugin's files at their version folder (staged, fsynced, renamed); the state does
    /// not name it yet. Call it inside ``change(_:)``.
    func add(_ plugin: VerifiedPlugin) throws {
        let target = versionFolder(plugin.manifest.id, plugin.manifest.version)
        if FileManager.default.fileExists(atPath: target.path) {
            // Left by an install the state never recorded, or an earlier copy: replaced, never trusted.
            try FileManager.default.removeItem(at: target)
        }
        try makeFolder(stagingFolder)
        let staged = stagingFolder.appendingPathComponent("\(plugin.manifest.id)-\(plugin.manifest.version)-\(UUID().uuidString)")
        try makeFolder(staged)
        var renamed = false
        defer { if !renamed { try? FileManager.default.removeItem(at: staged) } }
        for (name, data) in [
            (PluginArchive.manifestName, plugin.manifestData), (PluginArchive.signatureName, plugin.signature), (plugin.manifest.library, plugin.library),
        ] {
            try AtomicFile.writeSynced(data, to: staged.appendingPathComponent(name))
            checkpoint("unpacked \(name)")
        }
        AtomicFile.syncFolder(staged)
        try makeFolder(target.deletingLastPathComponent())
        checkpoint("rename")
        guard rename(staged.path, target.path) == 0 else {
            throw FeedError("cannot move the plugin into \(target.path): \(String(cString: strerror(errno)))")
        }
        renamed = true
        AtomicFile.syncFolder(target.deletingLastPathComponent())
        checkpoint("renamed")
    }

    /// Whether a change was cut short here (a staging folder, a state or download file never renamed, a call
    /// ledger): the next locked change removes them. Version folders the state no longer names are not
    /// looked for: only a change removes them, so only a change cut short leaves them, and the next change
    /// takes them away.
    func hasLeftovers() -> Bool {
        access(stagingFolder.path, F_OK) == 0 || Self.names(in: folder.path).contains { $0.hasPrefix(".state.json.") }
            || !Self.names(in: folder.appendingPathComponent("downloads").path).isEmpty
            || !Self.names(in: folder.appendingPathComponent("runs").path).isEmpty
    }

    /// Removes version folders and staging leftovers that `state` does not name.
    private func removeUnused(keeping state: StoreState) {
        let manager = FileManager.default
        if access(stagingFolder.path, F_OK) == 0 { try? manager.removeItem(at: stagingFolder) }
        // State written under the lock by a process that died before its rename: the lock is ours now.
        for name in Self.names(in: folder.path) where name.hasPrefix(".state.json.") && name.hasSuffix(".tmp") {
            try? manager.removeItem(at: folder.appendingPathComponent(name))
        }
        // Download files nobody holds: left by a killed install (a live one holds its lock). A file
        // younger than a minute may be one whose creator has not locked it yet.
        let downloads = folder.appendingPathComponent("downloads")
        for name in Self.names(in: downloads.path) {
            let path = downloads.appendingPathComponent(name).path
            guard let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date, Date().timeIntervalSince(modified) > 60 else {
                continue
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
        // Call ledgers of runs no trial waits for and that are over: a trial's runs are read at the next start.
        let waiting = Set(state.plugins.values.flatMap { $0.trial?.runs ?? [] })
        let runs = folder.appendingPathComponent("runs")
        for name in Self.names(in: runs.path) {
            let fields = name.split(separator: "-", maxSplits: 2)
            guard fields.count == 3, let pid = Int32(fields[0]), let started = UInt64(fields[1]) else { continue }
            let run = RunMark(pid: pid, started: started)
            if !waiting.contains(run), !run.isRunning { try? manager.removeItem(at: runs.appendingPathComponent(name)) }
        }
        for id in Self.names(in: versionsFolder.path) {
            let kept = state.plugins[id]?.kept ?? []
            for version in Self.names(in: versionsFolder.appendingPathComponent(id).path) where !kept.contains(version) {
                try? manager.removeItem(at: versionFolder(id, version))
            }
            if kept.isEmpty { try? manager.removeItem(at: versionsFolder.appendingPathComponent(id)) }
        }
    }

    /// The names in the folder at `path`, without `.` and `..`; none for a folder that cannot be read.
    /// (readdir(3) directly: every start lists five folders, and FileManager's listing costs several times more.)
    private static func names(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The installed files of `id` at `version`, checked again as at install: a trusted signature, the
    /// library's hash. Throws ``DamagedFiles`` for a store changed on disk after install.
    func installed(_ id: String, _ version: String, keys: TrustedKeys) throws -> VerifiedVersion {
        let folder = versionFolder(id, version)
        let repair = "Install it again with the app's 'plugins install \(id)@\(version)'"
        guard let manifestData = FileManager.default.contents(atPath: folder.appendingPathComponent(PluginArchive.manifestName).path),
            let signature = FileManager.default.contents(atPath: folder.appendingPathComponent(PluginArchive.signatureName).path)
        else { throw DamagedFiles(reason: "the installed files of \(id) \(version) are missing from \(folder.path). \(repair)") }
        do {
            try keys.verify(manifestData, signature: signature, what: "the installed manifest of \(id) \(version)")
        } catch {
            throw DamagedFiles(reason: "\(error). \(repair)")
        }
        let manifest = try PluginManifest.decode(manifestData, what: "the installed manifest of \(id) \(version)")
        guard manifest.id == id, manifest.version == version else { throw FeedError("the folder of \(id) \(version) holds \(manifest.id) \(manifest.version)") }
        let library = folder.appendingPathComponent(manifest.library)
        // Held open from here to the load: a file put in its place later is not what loads.
        let opened: OpenLibrary
        switch Self.openRegularFile(library.path) {
        case .success(let descriptor): opened = OpenLibrary(descriptor)
        case .failure(let unreadable):
            throw DamagedFiles(reason: "the installed library of \(id) \(version) \(unreadable.reason) (\(library.path)). \(repair)")
        }
        // One byte more than the signed size is enough to tell a longer file, however long it is.
        guard let image = Self.contents(of: opened.descriptor, upTo: manifest.size + 1), image.count == manifest.size,
            Digest.sha256(image) == manifest.sha256
        else {
            throw DamagedFiles(reason: "the installed library of \(id) \(version) was changed on disk since it was verified. \(repair)")
        }
        return VerifiedVersion(manifest: manifest, library: library, opened: opened)
    }

    /// Why a file is no library to read: what `openRegularFile` says instead of a descriptor.
    private struct Unreadable: Error {
        var reason: String
    }

    /// A descriptor of the regular file at `path` (links followed), or why there is none: missing, no regular
    /// file (a folder, a device, a pipe, which is never waited on), or unreadable.
    private static func openRegularFile(_ path: String) -> Result<Int32, Unreadable> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(Unreadable(reason: errno == ENOENT ? "is missing" : "cannot be read (\(String(cString: strerror(errno))))"))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(Unreadable(reason: "is no regular file"))
        }
        return .success(descriptor)
    }

    /// The first `limit` bytes read from `descriptor` (all of a shorter file), or nil when it cannot be read.
    private static func contents(of descriptor: Int32, upTo limit: Int) -> Data? {
        var data = Data(count: limit)
        var filled = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < limit {
                let count = pread(descriptor, buffer.baseAddress.map { $0 + filled }, limit - filled, off_t(filled))
                if count == 0 { return true }
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                filled += count
            }
            return true
        }
        guard complete else { return nil }
        data.count = filled
        return data
    }

    /// Whether the installed files of `id` at `version` are whole and trusted.
    func isIntact(_ id: String, _ version: String, keys: TrustedKeys) -> Bool {
        (try? installed(id, version, keys: keys)) != nil
    }
}

/// A download's file, locked by this process until ``discard()`` removes it.
struct DownloadFile {
    let url: URL
    let lock: Int32

    func discard() {
        unlink(url.path)
        close(lock)
    }
}

/// The store's folder cannot be written: read-only, not a folder, no permission, no space.
struct StoreUnwritable: Error, CustomStringConvertible {
    var folder: URL
    var reason: String

    var description: String {
        "the plugin store \(folder.path) cannot be written (\(reason)). Make it a writable folder, or give the App another data folder."
    }
}

/// Installed files that are no longer what was verified (missing, changed on disk): the plugin is left
/// out until it is installed again, never marked bad (the release itself may be fine).
struct DamagedFiles: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
