import CGit2
public import Foundation

extension GitRepository {
    /// The paths (relative to `folder`) where `folder` differs from `tree`: changed, missing, extra, or of
    /// another kind (file, executable, link). Files are compared by their git object id, as git does, so
    /// nothing is compared byte by byte against the object store. Empty when they are the same.
    public func differences(between tree: GitOID, and folder: URL) throws -> [String] {
        var found: [String] = []
        try compare(tree: tree, folder: folder, prefix: "", into: &found)
        return found.sorted()
    }

    private func compare(tree: GitOID, folder: URL, prefix: String, into found: inout [String]) throws {
        var oid = tree.raw
        var object: OpaquePointer?
        guard git_tree_lookup(&object, pointer, &oid) == 0 else { throw GitError(message: "git could not read tree \(tree.short)") }
        defer { git_tree_free(object) }
        var onDisk = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        for index in 0..<git_tree_entrycount(object) {
            guard let entry = git_tree_entry_byindex(object, index), let namePointer = git_tree_entry_name(entry),
                let id = git_tree_entry_id(entry)
            else { continue }
            let name = String(cString: namePointer)
            onDisk.remove(name)
            let path = prefix + name
            let url = folder.appendingPathComponent(name)
            var status = stat()
            guard lstat(url.path, &status) == 0 else {
                found.append(path)
                continue
            }
            let kind = status.st_mode & S_IFMT
            switch git_tree_entry_filemode(entry).rawValue {
            case GIT_FILEMODE_TREE.rawValue:
                if kind == S_IFDIR { try compare(tree: GitOID(id.pointee), folder: url, prefix: path + "/", into: &found) } else { found.append(path) }
            case GIT_FILEMODE_BLOB.rawValue, GIT_FILEMODE_BLOB_EXECUTABLE.rawValue:
                let executable = git_tree_entry_filemode(entry) == GIT_FILEMODE_BLOB_EXECUTABLE
                let isExecutable = status.st_mode & S_IXUSR != 0
                guard kind == S_IFREG, executable == isExecutable, let data = FileManager.default.contents(atPath: url.path),
                    blobID(of: Array(data)) == GitOID(id.pointee)
                else {
                    found.append(path)
                    continue
                }
            case GIT_FILEMODE_LINK.rawValue:
                guard kind == S_IFLNK, let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path),
                    blobID(of: Array(destination.utf8)) == GitOID(id.pointee)
                else {
                    found.append(path)
                    continue
                }
            case GIT_FILEMODE_COMMIT.rawValue:
                if kind != S_IFDIR { found.append(path) }
            default:
                continue
            }
        }
        found.append(contentsOf: onDisk.map { prefix + $0 })
    }

    /// The id git gives a file holding `bytes`.
    func blobID(of bytes: [UInt8]) -> GitOID? {
        var oid = git_oid()
        let status = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        return status == 0 ? GitOID(oid) : nil
    }
}
