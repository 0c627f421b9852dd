import Foundation

/// Writes files so that a reader or a crash sees either the old content or the new, never a mix.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, flushes it, then renames it over `url`.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw WorkspaceError.unreadable(path: temporary.path, reason: "cannot create a temporary file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            if let attributes = try? FileManager.default.attributesOfItem(atPath: url.path), let permissions = attributes[.posixPermissions] {
                try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
            }
            guard rename(temporary.path, url.path) == 0 else {
                throw WorkspaceError.unreadable(path: url.path, reason: "cannot replace the file: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
