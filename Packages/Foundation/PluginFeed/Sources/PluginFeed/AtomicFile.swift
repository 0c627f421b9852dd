public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes that a kill or a power cut never leaves half done: the App's copies of what it fetched, the
/// plugin store's state. Every file is written, fsynced, then renamed into place, and its folder fsynced.
public enum AtomicFile {
    /// Writes `data` to `url` through a temporary file in the same folder: fsync, rename, fsync the folder.
    /// A cache passes `durable: false`: renamed whole, never synced, so a power cut may lose it, never tear it.
    public static func write(_ data: Data, to url: URL, durable: Bool = true) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try writeSynced(data, to: temporary, durable: durable)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw FeedError("cannot write \(url.path): \(reason)")
        }
        if durable { syncFolder(url.deletingLastPathComponent()) }
    }

    /// Writes `data` to `url` in place and fsyncs it: for a file not yet in sight (in a staging folder renamed as a whole).
    public static func writeSynced(_ data: Data, to url: URL, durable: Bool = true) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        try data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }
        guard !durable || fsync(descriptor) == 0 else { throw FeedError("cannot write \(url.path): \(String(cString: strerror(errno)))") }
    }

    /// Makes the folder's entries (a rename into it) durable; a folder that cannot be opened is left as it is.
    public static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fsync(descriptor)
    }
}
