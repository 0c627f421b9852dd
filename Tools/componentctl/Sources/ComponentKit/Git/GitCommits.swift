import CGit2
public import Foundation

extension GitRepository {
    /// The repository's own folder (`.git`).
    public var gitDirectory: URL {
        URL(fileURLWithPath: git_repository_path(pointer).map { String(cString: $0) } ?? workdir.appendingPathComponent(".git").path)
    }

    /// Whether this is a shallow clone (its history, and often its tags, cut short).
    public var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

    /// The reference HEAD moves on a commit (`refs/heads/main`, or `HEAD` itself when detached) and its commit.
    public func headReference() throws -> (name: String, commit: GitOID) {
        var reference: OpaquePointer?
        guard git_repository_head(&reference, pointer) == 0, let reference else {
            throw GitError(message: "HEAD names no commit yet; commit the workspace first.")
        }
        defer { git_reference_free(reference) }
        guard let name = git_reference_name(reference), let target = git_reference_target(reference) else {
            throw GitError(message: "HEAD cannot be read; check 'git status'.")
        }
        return (String(cString: name), GitOID(target.pointee))
    }

    /// Writes a commit on top of `parent` whose tree is the parent's with each of `files` holding its bytes.
    /// Only the object is written: no reference moves, the index and working tree are untouched.
    public func commit(replacing files: [(path: String, bytes: [UInt8])], message: String, parent: GitOID) throws -> GitOID {
        let signature = try defaultSignature()
        defer { git_signature_free(signature) }
        var parentID = parent.raw
        var parentCommit: OpaquePointer?
        try check(git_commit_lookup(&parentCommit, pointer, &parentID), "read commit \(parent.short)")
        defer { git_commit_free(parentCommit) }
        var parentTree: OpaquePointer?
        try check(git_commit_tree(&parentTree, parentCommit), "read the tree of \(parent.short)")
        defer { git_tree_free(parentTree) }
        var index: OpaquePointer?
        try check(git_index_new(&index), "make an index")
        defer { git_index_free(index) }
        try check(git_index_read_tree(index, parentTree), "read the tree of \(parent.short)")
        for (path, bytes) in files {
            var mode = UInt32(GIT_FILEMODE_BLOB.rawValue)
            if let existing = git_index_get_bypath(index, path, 0) { mode = existing.pointee.mode }
            var blob = git_oid()
            try check(bytes.withUnsafeBytes { git_blob_create_from_buffer(&blob, pointer, $0.baseAddress, $0.count) }, "store \(path)")
            var entry = git_index_entry()
            entry.mode = mode
            entry.id = blob
            entry.file_size = UInt32(truncatingIfNeeded: bytes.count)
            try path.withCString { name in
                entry.path = name
                try check(git_index_add(index, &entry), "stage \(path)")
            }
        }
        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, index, pointer), "write the tree")
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, pointer, &treeID), "read the new tree")
        defer { git_tree_free(tree) }
        var created = git_oid()
        var parents: [OpaquePointer?] = [parentCommit]
        try check(git_commit_create(&created, pointer, nil, signature, signature, "UTF-8", message, tree, 1, &parents), "write the commit")
        return GitOID(created)
    }

    /// Moves the reference `name` from `old` to `new`, failing if it no longer names `old`.
    public func moveReference(_ name: String, from old: GitOID, to new: GitOID, message: String) throws {
        var reference: OpaquePointer?
        var newID = new.raw, oldID = old.raw
        let status = git_reference_create_matching(&reference, pointer, name, &newID, 1, &oldID, message)
        git_reference_free(reference)
        guard status == 0 else { throw lockAwareError(reference: name, "move \(name) to \(new.short)") }
    }

    /// The commit the reference `name` names, or nil when it does not exist.
    public func referenceTarget(_ name: String) -> GitOID? {
        var oid = git_oid()
        return git_reference_name_to_id(&oid, pointer, name) == 0 ? GitOID(oid) : nil
    }

    /// Whether the repository holds the commit `id`.
    public func containsCommit(_ id: GitOID) -> Bool {
        var oid = id.raw
        var object: OpaquePointer?
        defer { git_object_free(object) }
        return git_object_lookup(&object, pointer, &oid, GIT_OBJECT_COMMIT) == 0
    }

    /// What the tag `name` finally names once peeled ("commit", "tree", "blob"), or nil when there is no such tag.
    public func kindOfTagTarget(_ name: String) -> String? {
        var reference: OpaquePointer?
        guard git_reference_lookup(&reference, pointer, "refs/tags/\(name)") == 0 else { return nil }
        defer { git_reference_free(reference) }
        var object: OpaquePointer?
        guard git_reference_peel(&object, reference, GIT_OBJECT_ANY) == 0 else { return "object git cannot read" }
        defer { git_object_free(object) }
        return git_object_type2string(git_object_type(object)).map { String(cString: $0) } ?? "object"
    }

    /// Updates the index entry of `path` from the working tree, as `git add path` does.
    public func stage(_ path: String) throws {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open the index")
        defer { git_index_free(index) }
        guard git_index_read(index, 0) == 0, git_index_add_bypath(index, path) == 0, git_index_write(index) == 0 else {
            throw lockAwareError(reference: "index", "update the index for \(path)")
        }
    }

    /// The lock file git leaves when a write of `reference` (`refs/tags/x`, `index`) was interrupted, if it is there.
    public func staleLock(of reference: String) -> URL? {
        let lock = gitDirectory.appendingPathComponent(reference + ".lock")
        return FileManager.default.fileExists(atPath: lock.path) ? lock : nil
    }

    /// An error for a failed write of `reference`, naming a stale lock file and how to remove it when there is one.
    func lockAwareError(reference: String, _ what: String) -> GitError {
        if let lock = staleLock(of: reference) {
            return GitError(
                message: "git could not \(what): '\(lock.path)' exists, left by an interrupted git write. "
                    + "If no git command is running, remove it (rm '\(lock.path)') and run the command again.")
        }
        return GitError(message: "git could not \(what): \(Self.lastError())")
    }

    func defaultSignature() throws -> UnsafeMutablePointer<git_signature> {
        var signature: UnsafeMutablePointer<git_signature>?
        guard git_signature_default(&signature, pointer) == 0, let signature else {
            throw GitError(
                message: "git has no identity to sign the release with. Set one: git config user.name 'Your Name' && git config user.email you@example.com")
        }
        return signature
    }
}
