import CGit2
public import Foundation

/// The git tree id of folders of the working tree: the id HEAD's objects give a folder with no uncommitted
/// change, else the id `git add -A && git commit` would give it, computed from the files on disk without
/// writing a single object. Committing the same content later gives the same id, so a key computed
/// from an uncommitted change is still valid once it is committed.
final class WorkingTrees {
    private let repository: GitRepository
    private let head: GitOID?
    /// Paths with any change against HEAD (index or working tree; untracked files included, ignored ones not).
    private let changed: [String]
    /// Whether no attribute outside the working tree can filter a file (``GitRepository/hasNoFilterSettings()``) and no
    /// .gitattributes is tracked: then a changed file's blob is its bytes as they are, unless a .gitattributes on its
    /// way says otherwise, and hashing it needs no attribute lookup (which makes libgit2 read and check the whole index).
    private lazy var hashesBytes = repository.storesFilesAsBytes(index: IndexFile.read(at: repository.gitFolder.appendingPathComponent("index")))
    /// Folders known to hold a .gitattributes file, or none, by repository path.
    private var attributeFolders: [String: Bool] = [:]

    /// Reads HEAD and the status of the whole working tree once.
    init(_ repository: GitRepository) throws {
        self.repository = repository
        head = try? repository.headCommit()
        changed = try repository.changedFiles(under: "")
    }

    /// Reads HEAD; `changed` is the status of the whole working tree, read already (``WorkingTreeStatus``).
    init(_ repository: GitRepository, changed: [String]) {
        self.repository = repository
        head = try? repository.headCommit()
        self.changed = changed
    }

    /// Whether the file `path`, or anything under the folder `path` (but not under the folders `leftOut`), differs from HEAD.
    func isDirty(_ path: String, leavingOut leftOut: [String] = []) -> Bool {
        changes(under: path, leavingOut: leftOut).isEmpty == false
    }

    /// The tree id of the folder `path` as it is on disk (HEAD's when nothing under it changed); nil when
    /// it holds nothing git would track.
    func treeID(of path: String) throws -> GitOID? {
        try treeID(of: path, leavingOut: [])
    }

    /// The id of the file or folder `path` as it is on disk (a blob's or a tree's), or nil when there is none.
    func objectID(of path: String) throws -> GitOID? {
        var info = stat()
        guard !path.isEmpty, lstat(repository.workdir.appendingPathComponent(path).path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            return try treeID(of: path)
        }
        guard changed.contains(path) else { return try head.flatMap { try repository.entryID(path, in: $0) } }
        return try fileEntry(path, info: info).id
    }

    /// The tree id of the folder `path` with the folders `leftOut` (below it) taken out, as on disk.
    func treeID(of path: String, leavingOut leftOut: [String]) throws -> GitOID? {
        let changes = changes(under: path, leavingOut: leftOut)
        let committed = try head.flatMap { try repository.tree(of: $0, path: path) }
        if changes.isEmpty && leftOut.isEmpty { return committed }
        let root = Node(committed: committed)
        for folder in leftOut {
            try remove(relative(folder, to: path), from: root)
        }
        for file in changes {
            try place(file, relative: relative(file, to: path), in: root)
        }
        return try write(root)
    }

    /// The tree id the folder `folder` (outside the working tree, every file in it tracked) would have at `path`.
    func treeID(ofStaged folder: URL, as path: String) throws -> GitOID? {
        let root = Node(committed: nil)
        root.entries = [:]
        for file in (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted() {
            let url = folder.appendingPathComponent(file)
            var info = stat()
            guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { continue }
            let components = file.split(separator: "/").map(String.init)
            guard let name = components.last, let parent = try self.folder(components.dropLast()[...], in: root, creating: true) else { continue }
            parent.entries?[Array(name.utf8)] = try entry(of: url, info: info, as: path + "/" + file)
        }
        return try write(root)
    }

    private func changes(under path: String, leavingOut leftOut: [String] = []) -> [String] {
        let under = path.isEmpty ? changed : changed.filter { $0.hasPrefix(path + "/") || $0 == path }
        return leftOut.isEmpty ? under : under.filter { file in !leftOut.contains { file.hasPrefix($0 + "/") } }
    }

    private func relative(_ file: String, to folder: String) -> [String] {
        (folder.isEmpty ? file : String(file.dropFirst(folder.count + 1))).split(separator: "/").map(String.init)
    }

    // MARK: - A tree being changed

    /// A folder whose entries are read from its committed tree only when something below it changes. Its entries are
    /// named by their bytes: two spellings of `é` are two names to git, one to a Swift string.
    private final class Node {
        let committed: GitOID?
        var entries: [[UInt8]: Entry]?

        init(committed: GitOID?) { self.committed = committed }
    }

    private enum Entry {
        case file(mode: UInt32, id: GitOID)
        case folder(Node)
    }

    private func entries(of node: Node) throws -> [[UInt8]: Entry] {
        if let entries = node.entries { return entries }
        var entries: [[UInt8]: Entry] = [:]
        if let committed = node.committed {
            for entry in try repository.treeEntries(committed) {
                entries[entry.name] = entry.mode == GIT_FILEMODE_TREE.rawValue ? .folder(Node(committed: entry.id)) : .file(mode: entry.mode, id: entry.id)
            }
        }
        node.entries = entries
        return entries
    }

    private func folder(_ components: ArraySlice<String>, in node: Node, creating: Bool) throws -> Node? {
        guard let first = components.first.map({ Array($0.utf8) }) else { return node }
        var entries = try entries(of: node)
        let child: Node
        if case .folder(let existing)? = entries[first] {
            child = existing
        } else {
            guard creating else { return nil }
            child = Node(committed: nil)
            child.entries = [:]
            entries[first] = .folder(child)
            node.entries = entries
        }
        return try folder(components.dropFirst(), in: child, creating: creating)
    }

    private func remove(_ components: [String], from root: Node) throws {
        guard let name = components.last, let parent = try folder(components.dropLast()[...], in: root, creating: false) else { return }
        _ = try entries(of: parent)
        parent.entries?[Array(name.utf8)] = nil
    }

    /// Puts the file `path` (relative to the repository) as it is on disk at `components` below `root`, or
    /// takes it out when it is gone.
    private func place(_ path: String, relative components: [String], in root: Node) throws {
        guard let name = components.last else { return }
        var info = stat()
        guard lstat(repository.workdir.appendingPathComponent(path).path, &info) == 0 else {
            // The status names a file that is not there: gone, or named in bytes that are no UTF-8, which a string path
            // (U+FFFD in its place) cannot reach. A key must not leave that file out.
            guard !path.unicodeScalars.contains("\u{FFFD}") else {
                throw ToolError(
                    "The name of '\(path)' is not UTF-8, so no key can follow that file. Rename it (UTF-8), or make git ignore it.",
                    status: .usage)
            }
            return try remove(components, from: root)
        }
        // A folder the status names is a submodule whose checked-out commit moved: `git add` records that commit.
        let submodule = (info.st_mode & S_IFMT) == S_IFDIR ? repository.checkedOutCommit(ofSubmodule: path) : nil
        guard (info.st_mode & S_IFMT) != S_IFDIR || submodule != nil else { return try remove(components, from: root) }
        guard let parent = try folder(components.dropLast()[...], in: root, creating: true) else { return }
        let file = try submodule.map { (mode: GIT_FILEMODE_COMMIT.rawValue, id: $0) } ?? fileEntry(path, info: info)
        _ = try entries(of: parent)
        parent.entries?[Array(name.utf8)] = .file(mode: file.mode, id: file.id)
    }

    /// The mode and blob id git would record for the file or link `path` of the working tree.
    private func fileEntry(_ path: String, info: stat) throws -> (mode: UInt32, id: GitOID) {
        guard case .file(let mode, let id) = try entry(of: repository.workdir.appendingPathComponent(path), info: info, as: path) else {
            throw ToolError("'\(path)' is no file", status: .environment)
        }
        return (mode, id)
    }

    /// The entry git would record at `path` for the file or link at `url`.
    private func entry(of url: URL, info: stat, as path: String) throws -> Entry {
        if (info.st_mode & S_IFMT) == S_IFLNK {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
            return .file(mode: GIT_FILEMODE_LINK.rawValue, id: try repository.objectID(of: Array(target.utf8), type: GIT_OBJECT_BLOB))
        }
        let executable = info.st_mode & S_IXUSR != 0
        let id =
            try hashesBytes && !hasAttributesOnTheWay(to: path)
            ? repository.objectID(of: Array(try Data(contentsOf: url)), type: GIT_OBJECT_BLOB) : repository.hashFile(at: url, as: path)
        return .file(mode: executable ? GIT_FILEMODE_BLOB_EXECUTABLE.rawValue : GIT_FILEMODE_BLOB.rawValue, id: id)
    }

    /// Whether a .gitattributes file (tracked or not, ignored or not: git reads it all the same) is in a folder above `path`.
    private func hasAttributesOnTheWay(to path: String) -> Bool {
        var folders = [""]
        for part in path.split(separator: "/").dropLast() { folders.append(folders.count == 1 ? String(part) : folders[folders.count - 1] + "/" + part) }
        return folders.contains { folder in
            if let known = attributeFolders[folder] { return known }
            let found = FileStatus.exists(repository.workdir.appendingPathComponent(folder.isEmpty ? ".gitattributes" : folder + "/.gitattributes"))
            attributeFolders[folder] = found
            return found
        }
    }

    /// The id of `node` as a tree object (nil for an empty folder, which git does not keep).
    private func write(_ node: Node) throws -> GitOID? {
        guard node.entries != nil else { return node.committed }
        var written: [(name: [UInt8], mode: UInt32, id: GitOID)] = []
        for (name, entry) in try entries(of: node) {
            switch entry {
            case .file(let mode, let id): written.append((name, mode, id))
            case .folder(let child): if let id = try write(child) { written.append((name, GIT_FILEMODE_TREE.rawValue, id)) }
            }
        }
        guard !written.isEmpty else { return nil }
        // Git sorts a folder's name as if it ended in "/".
        let slash = UInt8(ascii: "/")
        written.sort { a, b in
            (a.name + (a.mode == GIT_FILEMODE_TREE.rawValue ? [slash] : [])).lexicographicallyPrecedes(
                b.name + (b.mode == GIT_FILEMODE_TREE.rawValue ? [slash] : []))
        }
        var bytes: [UInt8] = []
        for entry in written {
            bytes += Array(String(entry.mode, radix: 8).utf8) + [UInt8(ascii: " ")] + entry.name + [0]
            bytes += entry.id.bytes
        }
        return try repository.objectID(of: bytes, type: GIT_OBJECT_TREE)
    }
}

/// The status of a repository's whole working tree, read on a thread of its own while a command reads the workspace.
public struct WorkingTreeStatus: Sendable {
    /// The working tree's path.
    let workdir: String
    /// Every path with a change against HEAD (``GitRepository/changedFiles(under:ignored:)``).
    let changed: [String]
    /// The index's symbolic links and submodules (``GitRepository/indexLinksAndSubmodules()``).
    let index: (links: [String], submodules: [String: GitOID])

    /// Starts reading the status of the repository holding `folder`, on a repository handle of its own.
    public static func start(containing folder: URL) -> Background<WorkingTreeStatus> {
        Background { try read(GitRepository(containing: folder)) }
    }

    /// The status of `repository`, read now.
    static func read(_ repository: GitRepository) throws -> WorkingTreeStatus {
        if let scanned = WorkingTreeScan.read(repository) {
            // The scan declines an index with submodules.
            return WorkingTreeStatus(workdir: repository.workdir.path, changed: scanned.changed, index: (scanned.links, [:]))
        }
        return WorkingTreeStatus(
            workdir: repository.workdir.path, changed: try repository.changedFiles(under: ""), index: try repository.indexLinksAndSubmodules())
    }
}
