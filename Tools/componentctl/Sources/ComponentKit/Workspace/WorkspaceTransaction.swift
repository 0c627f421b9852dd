import Foundation

/// A change to several files, folders and a git tag that happens entirely or not at all.
///
/// Everything new is prepared first (staged folders, backups of the files to replace); then a
/// journal saying how to undo it is written; then the change is applied; deleting the journal is
/// the commit point. A process killed half-way leaves the journal behind, and the next command
/// (``recoverIfNeeded(root:)``) rolls the workspace back to where it was.
public struct WorkspaceTransaction {
    /// The workspace root.
    public let root: URL
    private var writes: [(path: String, bytes: [UInt8])] = []
    private var additions: [(staged: URL, path: String)] = []
    private var removals: [String] = []
    private var tag: Journal.Tag?

    /// A transaction on the workspace at `root`.
    public init(root: URL) {
        self.root = root
    }

    /// Whether the transaction changes nothing.
    public var isEmpty: Bool { writes.isEmpty && additions.isEmpty && removals.isEmpty && tag == nil }

    /// Replaces (or creates) the file at `path`, relative to the root.
    public mutating func write(_ path: String, _ bytes: [UInt8]) { writes.append((path, bytes)) }

    /// Moves the staged folder `staged` to `path`, relative to the root, which must not exist.
    public mutating func add(folder staged: URL, at path: String) { additions.append((staged, path)) }

    /// Removes the folder at `path`, relative to the root.
    public mutating func remove(folder path: String) { removals.append(path) }

    /// Creates an annotated tag as part of the change (deleted again on rollback).
    public mutating func createTag(_ name: String, commit: GitOID, message: String) {
        tag = Journal.Tag(name: name, commit: commit.hex, message: message)
    }

    /// A folder to stage new content in, on the workspace's file system so the final move is a rename.
    public static func stagingFolder(root: URL) throws -> URL {
        let folder = root.appendingPathComponent(".componentctl/staging/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Applies the change; on any failure rolls back what was applied and rethrows.
    public func commit(repository: GitRepository?, faultPoint: (String) -> Void = { _ in }) throws {
        let state = root.appendingPathComponent(".componentctl")
        let backups = state.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        var journal = Journal(tag: tag)
        for (index, write) in writes.enumerated() {
            let current = root.appendingPathComponent(write.path)
            var backup: String?
            if FileManager.default.fileExists(atPath: current.path) {
                backup = ".componentctl/backup/\(index)"
                try AtomicFile.write(try Data(contentsOf: current), to: root.appendingPathComponent(backup ?? ""))
            }
            journal.files.append(.init(path: write.path, backup: backup))
        }
        journal.addedFolders = additions.map(\.path)
        journal.removedFolders = removals.enumerated().map { .init(path: $1, parked: ".componentctl/trash/\($0)") }
        faultPoint("prepared")
        try journal.save(root: root)
        faultPoint("journal")
        do {
            if let tag, let repository, let commit = GitOID(hex: tag.commit) {
                try repository.createAnnotatedTag(tag.name, commit: commit, message: tag.message)
                faultPoint("tag")
            }
            for removed in journal.removedFolders where FileManager.default.fileExists(atPath: root.appendingPathComponent(removed.path).path) {
                try FileManager.default.createDirectory(at: state.appendingPathComponent("trash"), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: root.appendingPathComponent(removed.path), to: root.appendingPathComponent(removed.parked))
                faultPoint("remove")
            }
            for addition in additions {
                let target = root.appendingPathComponent(addition.path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: addition.staged, to: target)
                faultPoint("add")
            }
            for write in writes {
                try AtomicFile.write(Data(write.bytes), to: root.appendingPathComponent(write.path))
                faultPoint("write")
            }
        } catch {
            try Self.rollBack(journal, root: root, repository: repository)
            throw error
        }
        try Journal.delete(root: root)
        faultPoint("committed")
        Self.cleanUp(root: root)
    }

    /// Rolls back a change a killed process left half-done; does nothing when there is none.
    public static func recoverIfNeeded(root: URL, repository: () throws -> GitRepository?) throws {
        guard let journal = try Journal.load(root: root) else {
            cleanUp(root: root)
            return
        }
        try rollBack(journal, root: root, repository: try journal.tag == nil ? nil : repository())
    }

    private static func rollBack(_ journal: Journal, root: URL, repository: GitRepository?) throws {
        let manager = FileManager.default
        for file in journal.files {
            let target = root.appendingPathComponent(file.path)
            if let backup = file.backup {
                let saved = root.appendingPathComponent(backup)
                if manager.fileExists(atPath: saved.path) { try AtomicFile.write(try Data(contentsOf: saved), to: target) }
            } else if manager.fileExists(atPath: target.path) {
                try manager.removeItem(at: target)
            }
        }
        for added in journal.addedFolders where manager.fileExists(atPath: root.appendingPathComponent(added).path) {
            try manager.removeItem(at: root.appendingPathComponent(added))
            let parent = root.appendingPathComponent(added).deletingLastPathComponent()
            if (try? manager.contentsOfDirectory(atPath: parent.path).isEmpty) == true { try? manager.removeItem(at: parent) }
        }
        for removed in journal.removedFolders {
            let parked = root.appendingPathComponent(removed.parked)
            let original = root.appendingPathComponent(removed.path)
            if manager.fileExists(atPath: parked.path), !manager.fileExists(atPath: original.path) {
                try manager.createDirectory(at: original.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: parked, to: original)
            }
        }
        if let tag = journal.tag, let repository, let resolved = try repository.resolveTag(tag.name), resolved.commit.hex == tag.commit {
            try repository.deleteTag(tag.name)
        }
        try Journal.delete(root: root)
        cleanUp(root: root)
    }

    private static func cleanUp(root: URL) {
        for folder in ["backup", "trash", "staging"] {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(".componentctl/\(folder)"))
        }
    }
}

/// What an interrupted transaction needs to be undone.
struct Journal: Codable {
    struct File: Codable {
        var path: String
        var backup: String?
    }

    struct Removed: Codable {
        var path: String
        var parked: String
    }

    struct Tag: Codable {
        var name: String
        var commit: String
        var message: String
    }

    var files: [File] = []
    var addedFolders: [String] = []
    var removedFolders: [Removed] = []
    var tag: Tag?

    static func url(root: URL) -> URL { root.appendingPathComponent(".componentctl/journal.json") }

    func save(root: URL) throws {
        try AtomicFile.write(try JSONEncoder().encode(self), to: Self.url(root: root))
    }

    static func load(root: URL) throws -> Journal? {
        guard let data = FileManager.default.contents(atPath: url(root: root).path) else { return nil }
        return try JSONDecoder().decode(Journal.self, from: data)
    }

    static func delete(root: URL) throws {
        let url = url(root: root)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

/// An exclusive lock on the workspace, so two componentctl runs never interleave their changes.
///
/// Held with `flock`, which the kernel releases when the process dies, so a killed run never
/// leaves a stale lock behind.
public final class WorkspaceLock {
    private let descriptor: Int32

    /// Takes the lock on `root`, or fails at once when another run holds it.
    public init(root: URL) throws {
        let folder = root.appendingPathComponent(".componentctl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw ToolError("Cannot open the workspace lock in \(folder.path): \(String(cString: strerror(errno)))", exitCode: 3)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ToolError("Another componentctl is changing this workspace; wait for it to finish and run the command again.", exitCode: 3)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
