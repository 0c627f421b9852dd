public import Foundation

/// Writes files so that a reader or a crash sees either the old content or the new, never a mix.
public enum AtomicFile {
    /// Writes `data` to a temporary file, flushes it, then renames it over `url`.
    ///
    /// A link at `url` is written through: its target gets the new content and the link stays. The file
    /// keeps its permissions (a new one gets 0644), unless `mode` is given. The temporary file is made in `temporaryFolder` when
    /// given (the workspace's state folder, where recovery removes what a killed run left), else beside
    /// the file; `beforeRename` runs between the two steps (the fault-injection tests kill there).
    public static func write(_ data: Data, to url: URL, mode: mode_t? = nil, temporaryFolder: URL? = nil, beforeRename: () -> Void = {}) throws {
        let target = try resolved(url)
        var status = stat()
        let mode = mode ?? (stat(target.path, &status) == 0 ? status.st_mode & 0o7777 : 0o644)
        if let temporaryFolder {
            try? FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
            do {
                return try write(data, to: target, mode: mode, in: temporaryFolder, shown: url, beforeRename: beforeRename)
            } catch is RenameAcrossDevices {
                // The link's target is on another file system: a rename only works from beside it.
            }
        }
        try write(data, to: target, mode: mode, in: target.deletingLastPathComponent(), shown: url, beforeRename: beforeRename)
    }

    /// The file a write to `url` changes: `url` itself, or the end of the chain of links it starts, even
    /// when the last link dangles (its target is created then, and the link stays).
    public static func resolved(_ url: URL) throws -> URL {
        var current = url
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { return current }
            current =
                destination.hasPrefix("/")
                ? URL(fileURLWithPath: destination)
                : current.deletingLastPathComponent().appendingPathComponent(destination).standardizedFileURL
        }
        throw failure(url, "it is a chain of links that never ends (a loop)")
    }

    /// Removes the temporaries a killed ``write(_:to:mode:temporaryFolder:beforeRename:)`` of `url` left beside it. Call it
    /// only where no other process writes `url` at the same time (under a lock, or for a file only one command writes).
    public static func removeStaleTemporaries(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private struct RenameAcrossDevices: Error {}

    private static func write(_ data: Data, to target: URL, mode: mode_t, in folder: URL, shown: URL, beforeRename: () -> Void) throws {
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure(shown, "cannot create a temporary file in \(folder.path): \(String(cString: strerror(errno)))") }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        do {
            defer { close(descriptor) }
            var written = 0
            try data.withUnsafeBytes { bytes in
                while written < bytes.count {
                    let count = Foundation.write(descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written)
                    guard count > 0 else { throw failure(shown, String(cString: strerror(errno))) }
                    written += count
                }
            }
            guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else { throw failure(shown, String(cString: strerror(errno))) }
        }
        beforeRename()
        guard rename(temporary.path, target.path) == 0 else {
            if errno == EXDEV { throw RenameAcrossDevices() }
            throw failure(shown, "cannot replace the file: \(String(cString: strerror(errno)))")
        }
        renamed = true
    }

    private static func failure(_ url: URL, _ reason: String) -> ToolError {
        ToolError(
            "Cannot write '\(url.path)': \(reason). Make sure its folder is writable and the disk has room, then run the command again.",
            status: .environment)
    }
}
