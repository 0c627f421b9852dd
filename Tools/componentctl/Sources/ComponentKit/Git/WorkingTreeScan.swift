import CGit2
import Dispatch
import Foundation
import Synchronization

/// The working tree's changes against HEAD, read the way `git status` reads them, on every core: each tracked file's
/// stat data against the index's, its content hashed only where they disagree and its size does not tell, and every
/// tracked folder listed for files git does not know.
///
/// Names are compared as bytes, as the file system and git compare them (two spellings of `é` are two files).
///
/// It answers only where its answer is libgit2's status exactly. It declines (nil) where it is not sure of that, and
/// libgit2 reads the status instead: changes staged (the index's cache tree is not HEAD's tree), submodules, a split or
/// sparse index, entries marked assume-unchanged, skip-worktree or intent-to-add, a conflict, settings it does not
/// follow (`core.ignorecase`, `core.symlinks=false`, `core.checkStat`), an untracked name that is not UTF-8, a system
/// without `openat2`.
struct WorkingTreeScan {
    /// What the scan found: the changed paths (untracked files one by one, a nested repository as `path/`) and the
    /// tracked symbolic links.
    struct Result {
        var changed: [String]
        var links: [String]
    }

    private let repository: GitRepository
    private let index: IndexFile
    private let folders: FolderScanner

    /// A folder holding tracked files or folders: the entries of its files and the names of its tracked subfolders.
    fileprivate struct Folder {
        /// Its repository path's bytes ("" for the top).
        var path: [UInt8]
        var files: [Int] = []
        var subfolders: [[UInt8]] = []
    }

    /// What the scan of folders found.
    fileprivate struct FolderScan {
        var changed: [Int] = []
        /// Files whose stat data differs from the index's while their size is the same: their content decides.
        var uncertain: [Int] = []
        /// Paths git does not track (files, or folders to look into), by repository path.
        var unknown: [(path: String, isFolder: Bool)] = []
        /// Set where libgit2 must decide: the system cannot open a folder without following links, or a name git does
        /// not track is no UTF-8 (its path would be no string to ask the ignore rules about).
        var declined = false
    }

    /// The changes of `repository`'s working tree, or nil where libgit2 must read them.
    static func read(_ repository: GitRepository) -> Result? {
        guard let scan = WorkingTreeScan(repository) else { return nil }
        return try? scan.run()
    }

    private init?(_ repository: GitRepository) {
        guard let index = IndexFile.read(at: repository.gitFolder.appendingPathComponent("index")), index.requiredExtensions.isEmpty,
            let headTree = (try? repository.headCommit()).flatMap({ try? repository.tree(of: $0, path: "") }), index.rootTree == headTree.bytes
        else { return nil }
        let config = repository.configuration(["core.ignorecase", "core.symlinks", "core.checkstat", "core.filemode", "core.trustctime"])
        guard config["core.ignorecase"].map(Self.isTrue) != true, config["core.symlinks"].map(Self.isTrue) != false, config["core.checkstat"] == nil
        else { return nil }
        var folders = [Folder(path: [])]
        var folderIndex: [[UInt8]: Int] = [[]: 0]
        // Neighbours share their folder: it is looked up only where it changes.
        var previous = (start: 0, length: 0)
        var current = 0
        let complete = index.paths.withUnsafeBufferPointer { paths -> Bool in
            guard let base = paths.baseAddress else { return index.entries.isEmpty }
            for (position, entry) in index.entries.enumerated() {
                // A conflict, assume-unchanged, skip-worktree, intent-to-add, a submodule: libgit2's rules for them stand.
                guard entry.flags & 0xb000 == 0, entry.extendedFlags == 0, index.value(.mode, of: entry) != 0o160000 else { return false }
                var length = entry.pathLength
                while length > 0, paths[entry.pathStart + length - 1] != UInt8(ascii: "/") { length -= 1 }
                let folder = (start: entry.pathStart, length: max(0, length - 1))
                if folder.length != previous.length || memcmp(base + folder.start, base + previous.start, folder.length) != 0 {
                    current = Self.folder(Array(paths[folder.start..<(folder.start + folder.length)]), in: &folders, index: &folderIndex)
                    previous = folder
                }
                folders[current].files.append(position)
            }
            return true
        }
        guard complete else { return nil }
        self.repository = repository
        self.index = index
        self.folders = FolderScanner(
            index: index, folders: folders, trustsFileMode: config["core.filemode"].map(Self.isTrue) ?? true,
            trustsChangeTime: config["core.trustctime"].map(Self.isTrue) ?? true,
            hashesBytes: repository.storesFilesAsBytes(index: index))
    }

    /// The position of the folder `path` in `folders`, added with the folders above it when new.
    private static func folder(_ path: [UInt8], in folders: inout [Folder], index: inout [[UInt8]: Int]) -> Int {
        if let known = index[path] { return known }
        let slash = path.lastIndex(of: UInt8(ascii: "/"))
        let parent = folder(slash.map { Array(path[..<$0]) } ?? [], in: &folders, index: &index)
        folders[parent].subfolders.append(slash.map { Array(path[($0 + 1)...]) } ?? path)
        folders.append(Folder(path: path))
        index[path] = folders.count - 1
        return folders.count - 1
    }

    static func isAttributesFile(_ path: String) -> Bool {
        path == ".gitattributes" || path.hasSuffix("/.gitattributes")
    }

    private static func isTrue(_ value: String) -> Bool {
        ["true", "yes", "on", "1"].contains(value.lowercased())
    }

    private func run() throws -> Result? {
        let root = open(repository.workdir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return nil }
        defer { close(root) }
        let scan = folders.scanAll(root: root)
        // A new .gitattributes in a tracked folder may filter the files hashed as their bytes are: libgit2 decides then.
        guard !scan.declined, !(folders.hashesBytes && scan.unknown.contains { Self.isAttributesFile($0.path) }) else { return nil }
        var changed = scan.changed.map { index.path(of: index.entries[$0]) }
        for position in scan.uncertain {
            let entry = index.entries[position]
            let path = index.path(of: entry)
            if try contentID(of: path, mode: index.value(.mode, of: entry)) != Array(index.id(of: entry)) { changed.append(path) }
        }
        for unknown in scan.unknown { changed += try untracked(unknown.path, isFolder: unknown.isFolder) }
        let links = index.entries.filter { index.value(.mode, of: $0) == 0o120000 }.map { index.path(of: $0) }
        return Result(changed: changed.filter(GitRepository.isWorkspaceChange).sorted(), links: links)
    }

    /// The blob id git would give the working tree's `path`: a link's target, or a file's content through its filters.
    private func contentID(of path: String, mode: UInt32) throws -> [UInt8] {
        guard mode == 0o120000 else { return try repository.hashFile(path).bytes }
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: repository.workdir.appendingPathComponent(path).path)
        return try repository.objectID(of: Array(target.utf8), type: GIT_OBJECT_BLOB).bytes
    }

    /// The paths libgit2's status lists for the path git does not track: the file unless ignored; for a folder, a nested
    /// repository as `path/`, else every file below that is not ignored.
    private func untracked(_ path: String, isFolder: Bool) throws -> [String] {
        guard isFolder else { return try repository.isIgnored(path) ? [] : [path] }
        // componentctl's own folder (its journal, folders parked for removal) is none of the workspace's changes.
        guard GitRepository.isWorkspaceChange(path + "/") else { return [] }
        guard try !repository.isIgnored(path + "/") else { return [] }
        let folder = repository.workdir.path + "/" + path
        if access(folder + "/.git", F_OK) == 0 { return [path + "/"] }
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return [] }
        return try FileStatus.entries(ofFolder: descriptor).flatMap { name, kind -> [String] in
            guard kind != .other, name != Array(".git".utf8) else { return [] }
            guard let name = String(validating: name, as: UTF8.self) else { throw NameNotUTF8() }
            return try untracked(path + "/" + name, isFolder: kind == .folder)
        }
    }

    /// A name the scan cannot ask libgit2 about: libgit2 reads the status instead.
    private struct NameNotUTF8: Error {}
}

/// The part of the scan that runs on every core: it reads only the index and the file system.
private struct FolderScanner: Sendable {
    let index: IndexFile
    let folders: [WorkingTreeScan.Folder]
    let trustsFileMode: Bool
    let trustsChangeTime: Bool
    /// Whether no attribute can filter a file (``GitRepository/hasNoFilterSettings()``, no .gitattributes tracked): then a
    /// file whose stat data disagrees is hashed here, as its bytes are, on every core (a copied working tree disagrees
    /// in every file).
    let hashesBytes: Bool

    /// Scans every folder below the working tree `root` refers to.
    func scanAll(root: Int32) -> WorkingTreeScan.FolderScan {
        // Folders in chunks: one chunk is a few hundred system calls, and a core takes the next when done.
        let chunkSize = max(1, folders.count / 64)
        let chunks = stride(from: 0, to: folders.count, by: chunkSize).map { $0..<min($0 + chunkSize, folders.count) }
        let found = Mutex(WorkingTreeScan.FolderScan())
        DispatchQueue.concurrentPerform(iterations: chunks.count) { chunk in
            var scan = WorkingTreeScan.FolderScan()
            for folder in chunks[chunk] { self.scan(folders[folder], root: root, into: &scan) }
            found.withLock { all in
                all.changed += scan.changed
                all.uncertain += scan.uncertain
                all.unknown += scan.unknown
                all.declined = all.declined || scan.declined
            }
        }
        return found.withLock { $0 }
    }

    /// Compares the files of `folder` with the index and lists what is in it that git does not track.
    private func scan(_ folder: WorkingTreeScan.Folder, root: Int32, into scan: inout WorkingTreeScan.FolderScan) {
        let descriptor = folder.path.isEmpty ? dup(root) : Self.withCString(folder.path) { cgit2_open_folder_without_links(root, $0) }
        guard descriptor >= 0 else {
            if errno == ENOSYS || errno == EPERM { scan.declined = true }
            // Gone, a file now, or reached through a link: none of its tracked files is there.
            scan.changed += folder.files
            return
        }
        defer { close(descriptor) }
        let prefix = folder.path.isEmpty ? [] : folder.path + [UInt8(ascii: "/")]
        var present = 0
        var info = stat()
        for position in folder.files {
            let entry = index.entries[position]
            let found = withName(of: entry, after: prefix.count) { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
            guard found else {
                scan.changed.append(position)
                continue
            }
            present += 1
            switch compare(entry, with: info) {
            case .same: continue
            case .changed: scan.changed.append(position)
            case .uncertain:
                guard hashesBytes else {
                    scan.uncertain.append(position)
                    continue
                }
                let isLink = info.st_mode & S_IFMT == S_IFLNK
                if withName(of: entry, after: prefix.count, { Self.blobID(of: $0, in: descriptor, isLink: isLink) }) != Array(index.id(of: entry)) {
                    scan.changed.append(position)
                }
            case .folder:
                scan.changed.append(position)
                Self.add(Array(index.paths[entry.pathStart..<(entry.pathStart + entry.pathLength)]), isFolder: true, to: &scan)
            }
        }
        for name in folder.subfolders {
            guard Self.withCString(name, { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
            present += 1
            // A file or a link where a tracked folder was: git does not know it (the folder's own scan finds its files gone).
            if [S_IFREG, S_IFLNK].contains(info.st_mode & S_IFMT) { Self.add(prefix + name, isFolder: false, to: &scan) }
        }
        let names = FileStatus.entries(ofFolder: dup(descriptor)).filter { $0.name != Array(".git".utf8) }
        // Every name is a tracked file or folder found above unless the counts differ: only then are names compared.
        guard names.count != present else { return }
        let tracked = Set(
            folder.files.map { position in
                let entry = index.entries[position]
                return Array(index.paths[(entry.pathStart + prefix.count)..<(entry.pathStart + entry.pathLength)])
            } + folder.subfolders)
        // Pipes, sockets and devices are no files git could track: it lists none.
        for (name, kind) in names where kind != .other && !tracked.contains(name) { Self.add(prefix + name, isFolder: kind == .folder, to: &scan) }
    }

    /// Adds the path `bytes` git does not track to `scan`; a path that is no UTF-8 makes the scan decline.
    private static func add(_ bytes: [UInt8], isFolder: Bool, to scan: inout WorkingTreeScan.FolderScan) {
        guard let path = String(validating: bytes, as: UTF8.self) else { return scan.declined = true }
        scan.unknown.append((path, isFolder))
    }

    /// Calls `body` with the name of `entry`'s file in its folder (its path's bytes after `prefix` of them), NUL-ended
    /// as the index's paths are kept.
    private func withName<T>(of entry: IndexFile.Entry, after prefix: Int, _ body: (UnsafePointer<CChar>) -> T) -> T {
        index.paths.withUnsafeBytes { paths in
            guard let base = paths.baseAddress else { return body("") }
            return body((base + entry.pathStart + prefix).assumingMemoryBound(to: CChar.self))
        }
    }

    private static func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        body(bytes.map { CChar(bitPattern: $0) } + [0])
    }

    private enum Comparison { case same, changed, uncertain, folder }

    /// How the file `info` describes compares with `entry`, as libgit2 compares them.
    private func compare(_ entry: IndexFile.Entry, with info: stat) -> Comparison {
        let mode = index.value(.mode, of: entry)
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG:
            guard mode & 0o170000 == 0o100000 else { return .changed }
            if trustsFileMode, (mode & 0o100 != 0) != (info.st_mode & 0o100 != 0) { return .changed }
        case S_IFLNK:
            guard mode == 0o120000 else { return .changed }
        default: return .changed
        }
        let size = index.value(.size, of: entry)
        // git records 0 for a size it does not know (an entry from read-tree): only a known size tells a change.
        if size != UInt32(truncatingIfNeeded: info.st_size) { return size == 0 ? .uncertain : .changed }
        let same =
            index.value(.mtimeSeconds, of: entry) == UInt32(truncatingIfNeeded: info.st_mtim.tv_sec)
            && index.value(.mtimeNanoseconds, of: entry) == UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec)
            && (!trustsChangeTime
                || (index.value(.ctimeSeconds, of: entry) == UInt32(truncatingIfNeeded: info.st_ctim.tv_sec)
                    && index.value(.ctimeNanoseconds, of: entry) == UInt32(truncatingIfNeeded: info.st_ctim.tv_nsec)))
            && index.value(.inode, of: entry) == UInt32(truncatingIfNeeded: info.st_ino)
            && index.value(.user, of: entry) == info.st_uid && index.value(.group, of: entry) == info.st_gid
        return same && !isRacy(entry) ? .same : .uncertain
    }

    /// Whether `entry` was written no earlier than the index: the file may have changed again within the same instant
    /// its stat data was taken, so only its content can tell.
    private func isRacy(_ entry: IndexFile.Entry) -> Bool {
        let seconds = Int(index.value(.mtimeSeconds, of: entry))
        let written = Int(index.written.tv_sec)
        return seconds > written || (seconds == written && Int(index.value(.mtimeNanoseconds, of: entry)) >= index.written.tv_nsec)
    }

    /// The blob id of the file (or the link's target) `name` in `folder`, its bytes as they are; nil when it cannot be read.
    private static func blobID(of name: UnsafePointer<CChar>, in folder: Int32, isLink: Bool) -> [UInt8]? {
        guard isLink else {
            let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            return GitRepository.objectID(of: bytes, type: GIT_OBJECT_BLOB)
        }
        var target = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = target.withUnsafeMutableBytes { buffer in
            buffer.baseAddress.map { readlinkat(folder, name, $0.assumingMemoryBound(to: CChar.self), buffer.count) } ?? -1
        }
        guard count >= 0, count < target.count else { return nil }
        return GitRepository.objectID(of: Array(target[0..<count]), type: GIT_OBJECT_BLOB)
    }
}
