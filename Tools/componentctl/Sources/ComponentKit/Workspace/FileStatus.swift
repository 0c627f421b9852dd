public import Foundation

/// What is at a path, looked at without following a link there (`lstat`): what the tool must know
/// before it removes or replaces anything.
public enum FileStatus {
    /// What an entry of a folder is, as the folder itself records it: `other` is a pipe, socket or device.
    enum EntryKind { case folder, file, link, other }

    /// The entries of `folder` (without `.` and `..`) with their kinds, read from the folder (`readdir`'s entry type) and
    /// only where it does not say, from `lstat`; none when it cannot be read.
    static func entries(of folder: URL) -> [(name: String, kind: EntryKind)] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var entries: [(name: String, kind: EntryKind)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            if name == "." || name == ".." { continue }
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_LNK): kind = .link
            case Int32(DT_REG): kind = .file
            case Int32(DT_UNKNOWN):
                var status = stat()
                guard lstat(folder.appendingPathComponent(name).path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: kind = .folder
                case S_IFLNK: kind = .link
                case S_IFREG: kind = .file
                default: kind = .other
                }
            default: kind = .other
            }
            entries.append((name, kind))
        }
        return entries
    }

    /// The names in the folder at `path` (without `.` and `..`), none when it cannot be read: readdir alone, for the many
    /// folders a key looks into (FileManager's listing costs several times more).
    static func names(inFolderAt path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether something (a file, folder or link, even a dangling one) is at `url`.
    public static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Whether `url` is a folder itself, not a link to one.
    public static func isRealFolder(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// What tells one version of the file at `url` from another (device, inode, size, modification and change times), nil when none is
    /// there; `following` a link to its target.
    public static func identity(_ url: URL, following: Bool = false) -> [Int]? {
        var status = stat()
        guard (following ? stat(url.path, &status) : lstat(url.path, &status)) == 0 else { return nil }
        return [
            Int(status.st_dev), Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec, status.st_ctim.tv_sec,
            status.st_ctim.tv_nsec,
        ]
    }

    /// Whether `url` is a symbolic link (`lstat`, without the owner lookups `FileManager.attributesOfItem` makes).
    public static func isSymbolicLink(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }
}

extension FileStatus {
    /// Whether `url` is, or links to, a folder.
    public static func isFolder(_ url: URL) -> Bool {
        isFolder(atPath: url.path)
    }

    /// Whether `path` is, or links to, a folder.
    static func isFolder(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `url` is, or links to, a regular file.
    public static func isRegularFile(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Makes the folder `url` and its missing parents; a parent that is a file is named in the error, which
    /// `FileManager` reports only as "File exists".
    public static func createFolder(_ url: URL, purpose: String) throws {
        var ancestor = url.standardizedFileURL
        while ancestor.path != "/" {
            if !FileManager.default.fileExists(atPath: ancestor.path), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: ancestor.path) {
                throw ToolError(
                    "Cannot make the folder \(url.path) for \(purpose): \(ancestor.path) is a link to \(target), which does not exist. "
                        + "Create that folder, or choose another place.", status: .usage)
            }
            var status = stat()
            if stat(ancestor.path, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFDIR else {
                    throw ToolError(
                        "Cannot make the folder \(url.path) for \(purpose): \(ancestor.path) is a file, not a folder. Move it away, or choose another place.",
                        status: .usage)
                }
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ToolError(
                "Cannot make the folder \(url.path) for \(purpose): \(ToolError.describe(error)). Make sure its parent is writable.", status: .environment)
        }
    }
}
