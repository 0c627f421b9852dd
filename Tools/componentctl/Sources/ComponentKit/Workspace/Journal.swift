public import Foundation

/// What an interrupted transaction needs to be undone, kept in `.componentctl/journal.json`.
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

    /// A branch moved to a new commit, and the files of that commit staged in the index.
    struct Advance: Codable {
        var reference: String
        var from: String
        var to: String
        var path: String
        /// The commit's other files (a journal written before they existed has none).
        var also: [String]?

        var paths: [String] { [path] + (also ?? []) }
    }

    var summary: String
    var files: [File] = []
    var addedFolders: [String] = []
    var removedFolders: [Removed] = []
    var tag: Tag?
    var advance: Advance?

    init(summary: String, tag: Tag?, advance: Advance?) {
        self.summary = summary
        self.tag = tag
        self.advance = advance
    }

    /// The state folder's name in the workspace root (ignored by git).
    static let folderName = ".componentctl"

    static func state(_ root: URL) -> URL { root.appendingPathComponent(folderName) }

    /// Where every temporary file of a transaction is made, so recovery finds and removes it.
    static func temporaryFolder(_ root: URL) -> URL { state(root).appendingPathComponent("tmp") }

    static func url(root: URL) -> URL { state(root).appendingPathComponent("journal.json") }

    func save(root: URL) throws {
        try AtomicFile.write(try JSONEncoder().encode(self), to: Self.url(root: root), temporaryFolder: Self.temporaryFolder(root))
    }

    static func load(root: URL) throws -> Journal? {
        guard let data = FileManager.default.contents(atPath: url(root: root).path) else { return nil }
        do {
            return try JSONDecoder().decode(Journal.self, from: data)
        } catch {
            throw ToolError(
                "\(url(root: root).path) cannot be read (\(JSONOutput.summary(of: error))): it records how to undo an interrupted "
                    + "change. Check components.yaml, components.lock and Package.swift with 'git status', then delete the file.", status: .environment)
        }
    }

    static func delete(root: URL) throws {
        let url = url(root: root)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// Removes the transaction folders componentctl keeps in its own state folder (never anything else).
    static func cleanUp(root: URL) {
        for folder in ["backup", "trash", "staging", "tmp"] {
            try? FileManager.default.removeItem(at: state(root).appendingPathComponent(folder))
        }
    }

    /// The git references a rollback must write (`needed`: the branch still on the new commit, the index,
    /// the tag still on it) and those it leaves alone (`others`), for finding stale lock files first.
    func gitWrites(_ repository: GitRepository) -> (needed: [String], others: [String]) {
        var needed: [String] = [], others: [String] = []
        if let advance {
            if repository.referenceTarget(advance.reference) == GitOID(hex: advance.to) {
                needed.append(advance.reference)
            } else {
                others.append(advance.reference)
            }
            needed.append("index")
        }
        if let tag {
            let name = "refs/tags/\(tag.name)"
            if (try? repository.resolveTag(tag.name))??.commit.hex == tag.commit { needed.append(name) } else { others.append(name) }
        }
        return (needed, others)
    }

    /// Puts back every file, folder, index entry, branch and tag the transaction may have changed.
    func rollBack(root: URL, repository: GitRepository?) throws {
        let manager = FileManager.default
        let temporary = Self.temporaryFolder(root)
        for file in files {
            let target = try AtomicFile.resolved(root.appendingPathComponent(file.path))
            if let backup = file.backup {
                let saved = root.appendingPathComponent(backup)
                if let data = manager.contents(atPath: saved.path), manager.contents(atPath: target.path) != data {
                    try AtomicFile.write(data, to: target, temporaryFolder: temporary)
                }
            } else if FileStatus.exists(target) {
                try manager.removeItem(at: target)
            }
        }
        // A folder both removed and added (a checkout replaced) is still the original until it was parked.
        let unmoved = Set(removedFolders.filter { !FileStatus.exists(root.appendingPathComponent($0.parked)) }.map(\.path))
        for added in addedFolders where !unmoved.contains(added) && FileStatus.exists(root.appendingPathComponent(added)) {
            try manager.removeItem(at: root.appendingPathComponent(added))
        }
        for removed in removedFolders {
            let parked = root.appendingPathComponent(removed.parked)
            let original = root.appendingPathComponent(removed.path)
            if manager.fileExists(atPath: parked.path), !FileStatus.exists(original) {
                try manager.createDirectory(at: original.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: parked, to: original)
            }
        }
        if let advance, let repository, let old = GitOID(hex: advance.from), let new = GitOID(hex: advance.to) {
            if repository.referenceTarget(advance.reference) == new {
                try repository.moveReference(advance.reference, from: new, to: old, message: "roll back: \(summary)")
            }
            for path in advance.paths { try repository.stage(path) }
        }
        if let tag, let repository, let resolved = try? repository.resolveTag(tag.name), resolved.commit.hex == tag.commit {
            try repository.deleteTag(tag.name)
        }
        try Self.delete(root: root)
        Self.cleanUp(root: root)
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
        let folder = Journal.state(root)
        let path = folder.appendingPathComponent("lock").path
        var opened: Int32 = -1
        if (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil {
            opened = open(path, O_RDWR | O_CREAT, 0o644)
        }
        guard opened >= 0 else {
            throw ToolError(
                "Cannot write in the workspace: componentctl keeps its lock and journal in \(folder.path), and "
                    + "\(String(cString: strerror(errno))). Make the workspace writable and run the command again. Nothing was changed.", status: .environment)
        }
        descriptor = opened
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ToolError("Another componentctl is changing this workspace; wait for it to finish and run the command again.", status: .environment)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
