public import Foundation

/// What is at a path, looked at without following a link there (`lstat`): what the tool must know
/// before it removes or replaces anything.
public enum FileStatus {
    /// What an entry of a folder is, as the folder itself records it: `other` is a pipe, socket or device.
    enum EntryKind { case folder, file, link, other }

    /// The entries of the folder at `path` (without `.` and `..`) with their kinds, names as text; none when it cannot be read.
    static func entries(inFolderAt path: String) -> [(name: String, kind: EntryKind)] {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        return entries(ofFolder: descriptor).map { (String(decoding: $0.name, as: UTF8.self), $0.kind) }
    }

    /// The entries of the folder `descriptor` refers to (closed after), without `.` and `..`, names as their bytes: kinds
    /// from the listing's type, or where it does not say, from `lstat`. readdir alone: FileManager's listing costs several
    /// times more, and a name that is no UTF-8 still names its file.
    static func entries(ofFolder descriptor: Int32) -> [(name: [UInt8], kind: EntryKind)] {
        guard let folder = fdopendir(descriptor) else {
            close(descriptor)
            return []
        }
        defer { closedir(folder) }
        var entries: [(name: [UInt8], kind: EntryKind)] = []
        while let item = readdir(folder) {
            let name = withUnsafeBytes(of: &item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name != [UInt8(ascii: ".")], name != [UInt8(ascii: "."), UInt8(ascii: ".")] else { continue }
            entries.append((name, kind(listed: item.pointee.d_type, name: name, in: folder)))
        }
        return entries
    }

    /// The kind the listing gives an entry, or where it does not say, `lstat`'s (`other` when the entry is gone).
    private static func kind(listed type: UInt8, name: [UInt8], in folder: OpaquePointer) -> EntryKind {
        switch Int32(type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_LNK): return .link
        case Int32(DT_REG): return .file
        case Int32(DT_UNKNOWN):
            var info = stat()
            let found = fstatat(dirfd(folder), name.map { CChar(bitPattern: $0) } + [0], &info, AT_SYMLINK_NOFOLLOW)
            guard found == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFLNK: return .link
            case S_IFREG: return .file
            default: return .other
            }
        default: return .other
        }
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
