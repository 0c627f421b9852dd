public import Foundation

/// A change to several files, folders, a branch and a git tag that happens entirely or not at all.
///
/// Everything new is prepared first (staged folders, backups of the files to replace, a commit
/// object); then a journal saying how to undo it is written; then the change is applied; deleting
/// the journal is the commit point. A process killed half-way leaves the journal behind, and the
/// next command (``recoverIfNeeded(root:repository:)``) rolls the workspace back to where it was.
/// Every temporary file lives in `.componentctl/`, which recovery empties.
public struct WorkspaceTransaction {
    /// The workspace root.
    public let root: URL
    /// What the change is, in the user's words (`release user 1.2.0`), for recovery's messages.
    public let summary: String
    private var writes: [(path: String, bytes: [UInt8])] = []
    private var additions: [(staged: URL, path: String)] = []
    private var removals: [String] = []
    /// Removed folders that are no pin checkout: the caller vouched that git can give them back.
    private var verifiedRemovals: Set<String> = []
    private var tag: Journal.Tag?
    private var advance: Journal.Advance?

    /// A transaction on the workspace at `root`, described as `summary`.
    public init(root: URL, summary: String) {
        self.root = root
        self.summary = summary
    }

    /// Whether the transaction changes nothing.
    public var isEmpty: Bool { writes.isEmpty && additions.isEmpty && removals.isEmpty && tag == nil && advance == nil }

    /// Replaces (or creates) the file at `path`, relative to the root; a file whose lines end in CRLF keeps them.
    public mutating func write(_ path: String, _ bytes: [UInt8]) {
        let current = FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map(Array.init)
        writes.append((path, Self.keepingLineEndings(of: current, in: bytes)))
    }

    /// `bytes` with every lone LF made CRLF when `original` ends all its lines in CRLF, else `bytes`.
    static func keepingLineEndings(of original: [UInt8]?, in bytes: [UInt8]) -> [UInt8] {
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        guard let original, let first = original.firstIndex(of: lf), first > 0,
            original.indices.allSatisfy({ original[$0] != lf || ($0 > 0 && original[$0 - 1] == cr) })
        else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 20)
        for (index, byte) in bytes.enumerated() {
            if byte == lf && (index == 0 || bytes[index - 1] != cr) { result.append(cr) }
            result.append(byte)
        }
        return result
    }

    /// The bytes this transaction will write to `path`, if it writes it.
    public func pendingWrite(_ path: String) -> [UInt8]? { writes.last { $0.path == path }?.bytes }

    /// Moves the staged folder `staged` to `path`, relative to the root, which must not exist.
    public mutating func add(folder staged: URL, at path: String) { additions.append((staged, path)) }

    /// Removes the pin folder at `path`, relative to the root; the commit refuses unless componentctl made it.
    public mutating func remove(pinFolder path: String) { removals.append(path) }

    /// Removes a component's folder, which the caller found committed and unchanged (`componentctl remove`).
    public mutating func remove(committedFolder path: String) {
        removals.append(path)
        verifiedRemovals.insert(path)
    }

    /// Creates an annotated tag as part of the change (deleted again on rollback).
    public mutating func createTag(_ name: String, commit: GitOID, message: String) {
        tag = Journal.Tag(name: name, commit: commit.hex, message: message)
    }

    /// Moves the branch `reference` from `old` to the prepared commit `new` and stages `path` (the one file
    /// the commit changes) in the index; both are undone on rollback.
    public mutating func advance(_ reference: String, from old: GitOID, to new: GitOID, staging paths: [String]) {
        guard let first = paths.first else { return }
        advance = Journal.Advance(reference: reference, from: old.hex, to: new.hex, path: first, also: Array(paths.dropFirst()))
    }

    /// A folder to stage new content in, on the workspace's file system so the final move is a rename.
    public static func stagingFolder(root: URL) throws -> URL {
        let folder = Journal.state(root).appendingPathComponent("staging/\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Applies the change; on any failure rolls back what was applied and says so.
    public func commit(repository: GitRepository?, faultPoint: (String) -> Void = { _ in }) throws {
        let manager = FileManager.default
        for path in removals where !verifiedRemovals.contains(path) { try PinCheckout.requireRemovable(pinFolder: path, root: root) }
        for write in writes {
            var status = stat()
            let target = try AtomicFile.resolved(root.appendingPathComponent(write.path))
            if stat(target.path, &status) == 0, status.st_mode & 0o222 == 0 {
                throw ToolError(
                    "'\(write.path)' is read-only (mode \(String(status.st_mode & 0o777, radix: 8))), and this command would change it. "
                        + "Make it writable (chmod u+w \(write.path)) if it may change, then run the command again. Nothing was changed.",
                    status: .usage)
            }
        }
        for addition in additions {
            var parent = root.appendingPathComponent(addition.path).deletingLastPathComponent()
            while !FileStatus.exists(parent), parent.path.count > root.path.count { parent = parent.deletingLastPathComponent() }
            guard access(parent.path, W_OK) == 0 else {
                let shown = parent.path == root.path ? "the workspace root" : "'\(parent.path.dropFirst(root.path.count + 1))'"
                throw ToolError(
                    "Cannot create '\(addition.path)': \(shown) is not writable. Make it writable (chmod u+w), then run the command again. "
                        + "Nothing was changed.", status: .environment)
            }
        }
        for addition in additions where FileStatus.exists(root.appendingPathComponent(addition.path)) && !removals.contains(addition.path) {
            throw ToolError(
                "'\(addition.path)' exists already and was not made by componentctl; move it away and run the command again. "
                    + "Nothing was changed.", status: .usage)
        }
        let state = Journal.state(root)
        let temporary = Journal.temporaryFolder(root)
        var journal = Journal(summary: summary, tag: tag, advance: advance)
        do {
            for (index, write) in writes.enumerated() {
                let current = try AtomicFile.resolved(root.appendingPathComponent(write.path))
                guard FileStatus.exists(current) else {
                    journal.files.append(.init(path: write.path, backup: nil))
                    continue
                }
                let backup = "\(Journal.folderName)/backup/\(index)"
                try manager.createDirectory(at: state.appendingPathComponent("backup"), withIntermediateDirectories: true)
                try AtomicFile.write(try readFile(current), to: root.appendingPathComponent(backup), temporaryFolder: temporary)
                journal.files.append(.init(path: write.path, backup: backup))
            }
            // A file written into a folder that does not exist yet (a new app's sources) gets it created;
            // rolling back removes the folder again like an added one.
            var created: [String] = []
            for write in writes {
                var missing: String?
                var folder = (write.path as NSString).deletingLastPathComponent
                while !folder.isEmpty, !FileStatus.exists(root.appendingPathComponent(folder)) {
                    missing = folder
                    folder = (folder as NSString).deletingLastPathComponent
                }
                if let missing, !created.contains(missing) { created.append(missing) }
            }
            journal.addedFolders = additions.map(\.path) + created
            journal.removedFolders = removals.enumerated().map { .init(path: $1, parked: "\(Journal.folderName)/trash/\($0)") }
            faultPoint("prepared")
            try journal.save(root: root)
        } catch {
            Journal.cleanUp(root: root)
            throw ToolError("\(ToolError.describe(error)) Nothing was changed.", status: ExitStatus(of: error))
        }
        faultPoint("journal")
        do {
            if let advance, let repository, let old = GitOID(hex: advance.from), let new = GitOID(hex: advance.to) {
                try repository.moveReference(advance.reference, from: old, to: new, message: summary)
                faultPoint("advance")
            }
            if let tag, let repository, let commit = GitOID(hex: tag.commit) {
                try repository.createAnnotatedTag(tag.name, commit: commit, message: tag.message)
                faultPoint("tag")
            }
            for removed in journal.removedFolders where FileStatus.exists(root.appendingPathComponent(removed.path)) {
                try manager.createDirectory(at: state.appendingPathComponent("trash"), withIntermediateDirectories: true)
                try manager.moveItem(at: root.appendingPathComponent(removed.path), to: root.appendingPathComponent(removed.parked))
                faultPoint("remove")
            }
            for addition in additions {
                let target = root.appendingPathComponent(addition.path)
                do {
                    try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try manager.moveItem(at: addition.staged, to: target)
                } catch {
                    // Named by where it goes: the staging folder it comes from is componentctl's business.
                    throw ToolError(
                        "Cannot create '\(addition.path)': \(ToolError.describe(error)) Make sure "
                            + "'\((addition.path as NSString).deletingLastPathComponent)' is a writable folder.", status: .environment)
                }
                faultPoint("add")
            }
            for write in writes {
                try manager.createDirectory(
                    at: root.appendingPathComponent(write.path).deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(Data(write.bytes), to: root.appendingPathComponent(write.path), temporaryFolder: temporary) { faultPoint("temp") }
                faultPoint("write")
            }
            if let advance, let repository {
                for path in advance.paths { try repository.stage(path) }
                faultPoint("index")
            }
        } catch {
            do {
                try journal.rollBack(root: root, repository: repository)
            } catch let rollback {
                throw ToolError(
                    "\(ToolError.describe(error)) Rolling the change back failed too: \(ToolError.describe(rollback)) "
                        + "What is needed to finish it is kept in \(Journal.folderName)/: fix the cause, then run any componentctl command.",
                    status: .environment)
            }
            throw ToolError("\(ToolError.describe(error)) The change was rolled back; the workspace is as it was.", status: ExitStatus(of: error))
        }
        try Journal.delete(root: root)
        faultPoint("committed")
        Journal.cleanUp(root: root)
    }

    /// Rolls back a change a killed process left half-done, returning a note of what was undone (nil when
    /// there was nothing). Throws, changing nothing, when a stale git lock blocks a write the rollback needs.
    @discardableResult
    public static func recoverIfNeeded(root: URL, repository: () throws -> GitRepository?) throws -> String? {
        guard let journal = try Journal.load(root: root) else {
            Journal.cleanUp(root: root)
            return nil
        }
        let git = journal.tag != nil || journal.advance != nil ? try repository() : nil
        var note = "Rolled back an interrupted 'componentctl \(journal.summary)': the workspace is as it was before it."
        if let git {
            let locks = journal.gitWrites(git)
            if let blocking = locks.needed.lazy.compactMap({ git.staleLock(of: $0) }).first {
                throw ToolError(
                    "An interrupted 'componentctl \(journal.summary)' left its change half-done. Undoing it means writing git's "
                        + "\(blocking.deletingPathExtension().lastPathComponent), but the lock file '\(blocking.path)' is still there from the "
                        + "interrupted write, so git refuses. If no git command is running, remove it: rm '\(blocking.path)'. "
                        + "Then run componentctl again to finish the rollback.", status: .environment)
            }
            for stale in locks.others.compactMap({ git.staleLock(of: $0) }) {
                note += " The interrupted write left git's lock file '\(stale.path)'; if no git command is running, remove it: rm '\(stale.path)'."
            }
        }
        try journal.rollBack(root: root, repository: git)
        return note
    }

    private func readFile(_ url: URL) throws -> Data {
        guard !FileStatus.isRealFolder(url) else {
            throw ToolError("'\(url.path)' is a folder, where componentctl keeps a file; move it away and run the command again.", status: .usage)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ToolError("Cannot read '\(url.path)'; check its permissions.", status: .environment)
        }
        return data
    }
}
