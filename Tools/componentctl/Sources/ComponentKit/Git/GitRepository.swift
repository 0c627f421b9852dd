import CGit2
public import Foundation

/// A git object id.
public struct GitOID: Sendable, Hashable, CustomStringConvertible {
    /// The 40-character hexadecimal id.
    public let hex: String

    init(_ oid: git_oid) {
        var copy = oid
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_tostr(&buffer, buffer.count, &copy)
        hex = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses a 40-character hexadecimal id.
    public init?(hex: String) {
        var oid = git_oid()
        guard hex.count == 40, git_oid_fromstr(&oid, hex) == 0 else { return nil }
        self.init(oid)
    }

    var raw: git_oid {
        var oid = git_oid()
        git_oid_fromstr(&oid, hex)
        return oid
    }

    /// The 20 bytes of the id, as a tree object holds them.
    var bytes: [UInt8] {
        var oid = raw
        return withUnsafeBytes(of: &oid.id) { Array($0.prefix(20)) }
    }

    /// The first 10 characters.
    public var short: String { String(hex.prefix(10)) }
    public var description: String { hex }
}

/// An error from libgit2 or about the repository, with what to do.
public struct GitError: Error, Sendable, CustomStringConvertible {
    /// What failed and why.
    public var message: String
    public var description: String { message }
}

/// A git repository opened through libgit2. Every handle it hands out is freed with it.
public final class GitRepository {
    let pointer: OpaquePointer
    /// The working tree's root.
    public let workdir: URL

    /// Opens the repository containing `folder`, searching upwards.
    public init(containing folder: URL) throws {
        git_libgit2_init()
        cgit2_cache_large_trees()
        var repository: OpaquePointer?
        let status = git_repository_open_ext(&repository, folder.path, 0, nil)
        guard status == 0, let repository else {
            let message = Self.lastError()
            git_libgit2_shutdown()
            // libgit2 1.5 reports a repository owned by someone else as a missing 'safe.directory' setting.
            if message.contains("safe.directory") || message.contains("not owned by current user"), let owned = Self.foreignRepository(above: folder) {
                throw GitError(
                    message: "The git repository at '\(owned.path)' belongs to user id \(owned.owner), not to you (\(geteuid())), "
                        + "so git refuses to use it. Run as its owner, or trust it: git config --global --add safe.directory '\(owned.path)'")
            }
            if status == GIT_ENOTFOUND.rawValue {
                throw GitError(
                    message:
                        "'\(folder.path)' is not in a git repository. componentctl changes a workspace only inside one (releases and pins are git tags, and removals delete only what git can give back): run 'git init' and commit first."
                )
            }
            throw GitError(message: "Cannot open the git repository at '\(folder.path)': \(message)")
        }
        pointer = repository
        guard let path = git_repository_workdir(repository) else {
            git_repository_free(repository)
            git_libgit2_shutdown()
            throw GitError(message: "The repository at '\(folder.path)' is bare; componentctl needs a working tree.")
        }
        workdir = URL(fileURLWithPath: String(cString: path)).standardizedFileURL
    }

    /// Makes `folder` a new, empty git repository (no commit), like `git init`.
    public static func initialize(at folder: URL) throws {
        git_libgit2_init()
        defer { git_libgit2_shutdown() }
        var repository: OpaquePointer?
        guard git_repository_init(&repository, folder.path, 0) == 0 else {
            throw GitError(message: "Cannot make '\(folder.path)' a git repository: \(lastError())")
        }
        git_repository_free(repository)
    }

    /// The working tree of the git repository that holds `folder` (or the nearest existing folder above it), if any:
    /// the nearest folder upwards with a `.git` entry (a folder, or the file of a worktree or submodule), whoever owns it.
    public static func workTree(containing folder: URL) -> URL? {
        var current = folder.standardizedFileURL.resolvingSymlinksInPath()
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" { current = current.deletingLastPathComponent() }
        while true {
            if current.lastPathComponent == ".git" || FileStatus.exists(current.appendingPathComponent(".git")) {
                return current.lastPathComponent == ".git" ? current.deletingLastPathComponent() : current
            }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path else { return nil }
            current = parent
        }
    }

    /// The nearest folder upwards holding `.git` when its owner is not the current user.
    private static func foreignRepository(above folder: URL) -> (path: String, owner: uid_t)? {
        var current = folder.standardizedFileURL
        while true {
            var info = stat()
            if stat(current.appendingPathComponent(".git").path, &info) == 0 {
                return info.st_uid == geteuid() ? nil : (current.path, info.st_uid)
            }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path else { return nil }
            current = parent
        }
    }

    deinit {
        git_repository_free(pointer)
        git_libgit2_shutdown()
    }

    /// The path of `url` relative to the working tree, or nil when it is outside.
    public func relativePath(of url: URL) -> String? {
        let base = workdir.resolvingSymlinksInPath().path
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        if path == base { return "" }
        guard path.hasPrefix(base + "/") else { return nil }
        return String(path.dropFirst(base.count + 1))
    }

    // MARK: - Commits and tags

    /// The commit HEAD points at.
    public func headCommit() throws -> GitOID {
        var oid = git_oid()
        try check(git_reference_name_to_id(&oid, pointer, "HEAD"), "read HEAD (is there a commit yet?)")
        return GitOID(oid)
    }

    /// The commit a revision (`main`, `HEAD~2`, a tag, an id) names.
    public func resolveCommit(_ revision: String) throws -> GitOID {
        var object: OpaquePointer?
        guard git_revparse_single(&object, pointer, revision) == 0 else {
            throw GitError(message: "Unknown revision '\(revision)': \(Self.lastError()). Name a branch, tag or commit.")
        }
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        try check(git_object_peel(&commit, object, GIT_OBJECT_COMMIT), "resolve '\(revision)' to a commit")
        defer { git_object_free(commit) }
        guard let id = git_object_id(commit) else { throw GitError(message: "'\(revision)' names no commit") }
        return GitOID(id.pointee)
    }

    /// Tag names starting with `prefix` (libgit2's pattern lets `*` cross `/`, so this filters exactly).
    public func tagNames(prefix: String) throws -> [String] {
        var names = git_strarray()
        try check(git_tag_list_match(&names, prefix + "*", pointer), "list tags")
        defer { git_strarray_dispose(&names) }
        return (0..<names.count).compactMap { index in names.strings[index].map { String(cString: $0) } }.filter { $0.hasPrefix(prefix) }
    }

    /// A resolved tag: the commit it names, and the tag object for annotated tags.
    public struct ResolvedTag: Sendable, Hashable {
        /// The commit.
        public var commit: GitOID
        /// The annotated tag object, or nil for a lightweight tag.
        public var tagObject: GitOID?
        /// The commit's time.
        public var date: Date
    }

    /// Resolves the tag `name` by its exact ref, or returns nil when there is no such tag.
    public func resolveTag(_ name: String) throws -> ResolvedTag? {
        var reference: OpaquePointer?
        let status = git_reference_lookup(&reference, pointer, "refs/tags/\(name)")
        if status == GIT_ENOTFOUND.rawValue { return nil }
        try check(status, "look up tag '\(name)'")
        defer { git_reference_free(reference) }
        var object: OpaquePointer?
        try check(git_reference_peel(&object, reference, GIT_OBJECT_COMMIT), "resolve tag '\(name)' to a commit")
        defer { git_object_free(object) }
        guard let commitID = git_object_id(object) else { throw GitError(message: "tag '\(name)' has no commit") }
        var tagObject: GitOID?
        if let target = git_reference_target(reference), git_oid_equal(target, commitID) == 0 {
            tagObject = GitOID(target.pointee)
        }
        let time = git_commit_time(object)
        return ResolvedTag(commit: GitOID(commitID.pointee), tagObject: tagObject, date: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// Creates the annotated tag `name` on `commit`; fails if it exists.
    public func createAnnotatedTag(_ name: String, commit: GitOID, message: String) throws {
        let signature = try defaultSignature()
        defer { git_signature_free(signature) }
        var oid = commit.raw
        var target: OpaquePointer?
        try check(git_object_lookup(&target, pointer, &oid, GIT_OBJECT_COMMIT), "find commit \(commit.short)")
        defer { git_object_free(target) }
        var created = git_oid()
        guard git_tag_create(&created, pointer, name, target, signature, message, 0) == 0 else {
            throw lockAwareError(reference: "refs/tags/\(name)", "create tag '\(name)'")
        }
    }

    /// Deletes the tag `name` if it exists.
    public func deleteTag(_ name: String) throws {
        let status = git_tag_delete(pointer, name)
        if status == GIT_ENOTFOUND.rawValue { return }
        guard status == 0 else { throw lockAwareError(reference: "refs/tags/\(name)", "delete tag '\(name)'") }
    }

    /// The commits reachable from `head` and not from `base` that change something under `path`.
    public func commitCount(touching path: String, from head: GitOID, notReachableFrom base: GitOID?) throws -> Int {
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, pointer), "walk history")
        defer { git_revwalk_free(walker) }
        var start = head.raw
        try check(git_revwalk_push(walker, &start), "walk from \(head.short)")
        if let base {
            var hidden = base.raw
            try check(git_revwalk_hide(walker, &hidden), "hide \(base.short)")
        }
        var count = 0
        var oid = git_oid()
        while git_revwalk_next(&oid, walker) == 0 {
            let commit = GitOID(oid)
            let tree = try self.tree(of: commit, path: path)
            let parentTrees = try parents(of: commit).map { try self.tree(of: $0, path: path) }
            if parentTrees.isEmpty ? tree != nil : !parentTrees.contains(tree) { count += 1 }
        }
        return count
    }

    private func parents(of commit: GitOID) throws -> [GitOID] {
        try withCommit(commit) { object in
            (0..<git_commit_parentcount(object)).compactMap { git_commit_parent_id(object, $0).map { GitOID($0.pointee) } }
        }
    }

    // MARK: - Trees and blobs

    /// The id of the tree at `path` in `commit` (the root tree for ""), or nil when the path is absent or not a folder.
    public func tree(of commit: GitOID, path: String) throws -> GitOID? {
        if path.isEmpty {
            return try withCommit(commit) { object in
                var root: OpaquePointer?
                try check(git_commit_tree(&root, object), "read the tree of \(commit.short)")
                defer { git_tree_free(root) }
                return git_tree_id(root).map { GitOID($0.pointee) }
            }
        }
        return try withEntry(path, in: commit) { entry in
            git_tree_entry_type(entry) == GIT_OBJECT_TREE ? git_tree_entry_id(entry).map { GitOID($0.pointee) } : nil
        } ?? nil
    }

    /// The id of whatever is at `path` in `commit` (a file's blob, a folder's tree), or nil when nothing is.
    func entryID(_ path: String, in commit: GitOID) throws -> GitOID? {
        try withEntry(path, in: commit) { entry in git_tree_entry_id(entry).map { GitOID($0.pointee) } } ?? nil
    }

    /// The bytes of the file at `path` in `commit`, or nil when there is none.
    public func file(at path: String, in commit: GitOID) throws -> [UInt8]? {
        try withEntry(path, in: commit) { entry in
            guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB, let id = git_tree_entry_id(entry) else { return nil }
            return try blobBytes(id.pointee)
        } ?? nil
    }

    /// Which of `paths` hold something different in `head` than in `base`.
    ///
    /// Compares tree ids folder by folder from the top, remembering each: when `Packages/Business` is
    /// the same tree in both commits, nothing below it is looked at again.
    public func changedPaths(_ paths: [String], between base: GitOID, and head: GitOID) throws -> Set<String> {
        try withTrees(base, head) { baseTree, headTree in
            var same: [String: Bool] = [:]
            let id = { (entry: OpaquePointer?) in git_tree_entry_id(entry).map { GitOID($0.pointee) } }
            func isSame(_ path: String) throws -> Bool {
                if let known = same[path] { return known }
                let parent = (path as NSString).deletingLastPathComponent
                let result = try (!parent.isEmpty && isSame(parent)) || withEntry(path, in: baseTree, id) == withEntry(path, in: headTree, id)
                same[path] = result
                return result
            }
            return Set(try paths.filter { try !isSame($0) })
        }
    }

    /// The paths of the files that differ between the trees of `base` and `head` (added, removed, changed, renamed: both
    /// names), compared by libgit2, which skips every folder whose tree id is the same.
    public func changedFiles(between base: GitOID, and head: GitOID) throws -> [String] {
        try withTrees(base, head) { baseTree, headTree in
            var diff: OpaquePointer?
            try check(git_diff_tree_to_tree(&diff, pointer, baseTree, headTree, nil), "compare \(base.short) with \(head.short)")
            defer { git_diff_free(diff) }
            var files: [String] = []
            for index in 0..<git_diff_num_deltas(diff) {
                guard let delta = git_diff_get_delta(diff, index) else { continue }
                files += [delta.pointee.old_file.path, delta.pointee.new_file.path].compactMap { $0.map { String(cString: $0) } }
            }
            return Array(Set(files)).sorted()
        }
    }

    /// Runs `body` on the root trees of the commits `base` and `head`.
    private func withTrees<T>(_ base: GitOID, _ head: GitOID, _ body: (OpaquePointer?, OpaquePointer?) throws -> T) throws -> T {
        try withCommit(base) { baseCommit in
            try withCommit(head) { headCommit in
                var baseTree: OpaquePointer?, headTree: OpaquePointer?
                try check(git_commit_tree(&baseTree, baseCommit), "read the tree of \(base.short)")
                defer { git_tree_free(baseTree) }
                try check(git_commit_tree(&headTree, headCommit), "read the tree of \(head.short)")
                defer { git_tree_free(headTree) }
                return try body(baseTree, headTree)
            }
        }
    }

    /// Runs `body` on the entry at `path` of `commit`'s tree; nil when there is no such entry.
    private func withEntry<T>(_ path: String, in commit: GitOID, _ body: (OpaquePointer?) throws -> T) throws -> T? {
        try withCommit(commit) { object in
            var root: OpaquePointer?
            try check(git_commit_tree(&root, object), "read the tree of \(commit.short)")
            defer { git_tree_free(root) }
            return try withEntry(path, in: root, body)
        }
    }

    /// Runs `body` on the entry at `path` of `tree`; nil when there is no such entry.
    private func withEntry<T>(_ path: String, in tree: OpaquePointer?, _ body: (OpaquePointer?) throws -> T) throws -> T? {
        var entry: OpaquePointer?
        let status = git_tree_entry_bypath(&entry, tree, path)
        if status == GIT_ENOTFOUND.rawValue { return nil }
        try check(status, "find '\(path)'")
        defer { git_tree_entry_free(entry) }
        return try body(entry)
    }

    /// Writes the tree `tree` into `folder` (which must not exist) from git objects, never touching
    /// the working tree or the index: files with their executable bit, symlinks, empty folders for
    /// submodules, as `git archive` does.
    public func materialize(tree: GitOID, into folder: URL) throws {
        var oid = tree.raw
        var object: OpaquePointer?
        try check(git_tree_lookup(&object, pointer, &oid), "read tree \(tree.short)")
        defer { git_tree_free(object) }
        guard mkdir(folder.path, 0o777) == 0 else { throw GitError(message: "cannot create '\(folder.path)': \(String(cString: strerror(errno)))") }
        for index in 0..<git_tree_entrycount(object) {
            guard let entry = git_tree_entry_byindex(object, index), let namePointer = git_tree_entry_name(entry),
                let id = git_tree_entry_id(entry)
            else { continue }
            let target = folder.appendingPathComponent(String(cString: namePointer))
            switch git_tree_entry_filemode(entry).rawValue {
            case GIT_FILEMODE_TREE.rawValue:
                try materialize(tree: GitOID(id.pointee), into: target)
            case GIT_FILEMODE_BLOB.rawValue, GIT_FILEMODE_BLOB_EXECUTABLE.rawValue:
                let executable = git_tree_entry_filemode(entry) == GIT_FILEMODE_BLOB_EXECUTABLE
                try writeFile(target, bytes: try blobBytes(id.pointee), mode: executable ? 0o777 : 0o666)
            case GIT_FILEMODE_LINK.rawValue:
                let destination = String(decoding: try blobBytes(id.pointee), as: UTF8.self)
                guard symlink(destination, target.path) == 0 else {
                    throw GitError(message: "cannot create link '\(target.path)': \(String(cString: strerror(errno)))")
                }
            case GIT_FILEMODE_COMMIT.rawValue:
                guard mkdir(target.path, 0o777) == 0 else { throw GitError(message: "cannot create '\(target.path)'") }
            default:
                continue
            }
        }
    }

    /// The entries of the tree `tree`: name (its bytes, as git keeps them), file mode and object id.
    func treeEntries(_ tree: GitOID) throws -> [(name: [UInt8], mode: UInt32, id: GitOID)] {
        var oid = tree.raw
        var object: OpaquePointer?
        try check(git_tree_lookup(&object, pointer, &oid), "read tree \(tree.short)")
        defer { git_tree_free(object) }
        return (0..<git_tree_entrycount(object)).compactMap { index in
            guard let entry = git_tree_entry_byindex(object, index), let name = git_tree_entry_name(entry), let id = git_tree_entry_id(entry)
            else { return nil }
            return (Array(UnsafeRawBufferPointer(start: name, count: strlen(name))), git_tree_entry_filemode(entry).rawValue, GitOID(id.pointee))
        }
    }

    /// The blob id git would give the working tree's file `path` (with the repository's filters, as `git add` applies them).
    func hashFile(_ path: String) throws -> GitOID {
        try hashFile(at: workdir.appendingPathComponent(path), as: path)
    }

    /// The blob id of the file at `url` as git would store it at `path` (its filters by that path's attributes).
    func hashFile(at url: URL, as path: String) throws -> GitOID {
        var oid = git_oid()
        try check(git_repository_hashfile(&oid, pointer, url.path, GIT_OBJECT_BLOB, path), "hash '\(path)'")
        return GitOID(oid)
    }

    /// The id of an object of `type` holding `bytes`, without writing it.
    func objectID(of bytes: [UInt8], type: git_object_t) throws -> GitOID {
        var oid = git_oid()
        try check(bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, type) }, "hash an object")
        return GitOID(oid)
    }

    /// The 20 bytes of the id of an object of `type` holding `bytes` (no repository needed: safe on any thread); nil when
    /// libgit2 cannot hash it.
    static func objectID(of bytes: [UInt8], type: git_object_t) -> [UInt8]? {
        var oid = git_oid()
        guard bytes.withUnsafeBytes({ git_odb_hash(&oid, $0.baseAddress, $0.count, type) }) == 0 else { return nil }
        return withUnsafeBytes(of: &oid.id) { Array($0.prefix(20)) }
    }

    // MARK: - Status

    /// Paths under `path` with changes in the index or working tree, untracked files included (and ignored
    /// ones when `ignored` is set; an ignored folder is one entry, ending in "/").
    public func changedFiles(under path: String, ignored: Bool = false) throws -> [String] {
        if !ignored, let scanned = WorkingTreeScan.read(self) {
            return scanned.changed.filter { path.isEmpty || $0.hasPrefix(path + "/") || $0 == path }
        }
        // Nothing is staged when the index's cache tree is HEAD's tree: then only the working tree needs comparing, unless
        // the index changed meanwhile.
        let index = gitFolder.appendingPathComponent("index")
        let before = FileStatus.identity(index)
        let headTree = (try? headCommit()).flatMap { try? tree(of: $0, path: "") }
        let unstaged = before != nil && headTree != nil && headTree?.bytes == IndexFile.read(at: index)?.rootTree
        var paths = try changedFiles(under: path, ignored: ignored, show: unstaged ? GIT_STATUS_SHOW_WORKDIR_ONLY : GIT_STATUS_SHOW_INDEX_AND_WORKDIR)
        if unstaged && FileStatus.identity(index) != before {
            paths = try changedFiles(under: path, ignored: ignored, show: GIT_STATUS_SHOW_INDEX_AND_WORKDIR)
        }
        return paths
    }

    private func changedFiles(under path: String, ignored: Bool, show: git_status_show_t) throws -> [String] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "prepare status")
        options.show = show
        options.flags =
            GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH.rawValue | (ignored ? GIT_STATUS_OPT_INCLUDE_IGNORED.rawValue : 0)
        let prefix = path.isEmpty ? "" : path + "/"
        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "read the status")
        defer { git_status_list_free(list) }
        var paths: [String] = []
        for index in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, index) else { continue }
            let delta = entry.pointee.index_to_workdir ?? entry.pointee.head_to_index
            guard let file = delta?.pointee.new_file.path ?? delta?.pointee.old_file.path else { continue }
            let name = String(cString: file)
            guard Self.isWorkspaceChange(name) else { continue }
            if path.isEmpty || name.hasPrefix(prefix) || name == path { paths.append(name) }
        }
        return paths.sorted()
    }

    /// Whether a changed path is a change of the workspace: componentctl's own lock and journal folder is none, ignored or not.
    static func isWorkspaceChange(_ path: String) -> Bool {
        !path.hasPrefix(Journal.folderName + "/") && !path.contains("/" + Journal.folderName + "/")
    }

    /// Whether git stores a file of the working tree as its bytes are, as far as the settings and the attribute files
    /// outside the working tree tell: no `core.autocrlf`, no `core.attributesFile`, and no `info/attributes`, global or
    /// system attributes file. The `.gitattributes` files of the tree are the caller's to rule out.
    func hasNoFilterSettings() -> Bool {
        let config = configuration(["core.autocrlf", "core.attributesfile"])
        guard config["core.attributesfile"] == nil, ["false", "no", "off", "0", nil].contains(config["core.autocrlf"]?.lowercased()) else { return false }
        let environment = ProcessInfo.processInfo.environment
        let configHome = environment["XDG_CONFIG_HOME"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        // A linked worktree reads info/attributes from the repository's common folder.
        let common = String(cString: git_repository_commondir(pointer))
        var files = [common + "/info/attributes", configHome + "/git/attributes", "/etc/gitattributes"]
        // libgit2 looks for the system's beside the system's configuration file.
        var system = git_buf()
        if git_config_find_system(&system) == 0, let path = system.ptr {
            files.append(URL(fileURLWithPath: String(cString: path)).deletingLastPathComponent().appendingPathComponent("gitattributes").path)
        }
        git_buf_dispose(&system)
        return files.allSatisfy { access($0, F_OK) != 0 }
    }

    /// Whether a file of the working tree is stored as its bytes are wherever no .gitattributes on its way says
    /// otherwise: no setting or attribute file outside the tree (``hasNoFilterSettings()``) and none tracked in `index`.
    func storesFilesAsBytes(index: IndexFile?) -> Bool {
        index.map { !$0.hasFile(named: ".gitattributes") } == true && hasNoFilterSettings()
    }

    /// The repository's own folder (`.git`).
    var gitFolder: URL { URL(fileURLWithPath: String(cString: git_repository_path(pointer))) }

    /// The values of the settings `names` (as `core.filemode`) that git's configuration sets, by lower-case name.
    func configuration(_ names: [String]) -> [String: String] {
        var config: OpaquePointer?
        guard git_repository_config_snapshot(&config, pointer) == 0 else { return [:] }
        defer { git_config_free(config) }
        var values: [String: String] = [:]
        for name in names {
            var value: UnsafePointer<CChar>?
            if git_config_get_string(&value, config, name) == 0, let value { values[name.lowercased()] = String(cString: value) }
        }
        return values
    }

    /// Whether git ignores `path` (relative to the working tree; a folder ends in "/").
    public func isIgnored(_ path: String) throws -> Bool {
        var ignored: Int32 = 0
        try check(git_ignore_path_is_ignored(&ignored, pointer, path), "read the ignore rules")
        return ignored != 0
    }

    /// The index's symbolic links and submodules (gitlinks, with the commit each records); other files are only
    /// counted, since turning 20,000 paths into strings costs more than the rest of a key.
    func indexLinksAndSubmodules() throws -> (links: [String], submodules: [String: GitOID]) {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "read the index")
        defer { git_index_free(index) }
        var links: [String] = []
        var submodules: [String: GitOID] = [:]
        for position in 0..<git_index_entrycount(index) {
            guard let entry = git_index_get_byindex(index, position), let path = entry.pointee.path else { continue }
            switch entry.pointee.mode {
            case GIT_FILEMODE_COMMIT.rawValue: submodules[String(cString: path)] = GitOID(entry.pointee.id)
            case GIT_FILEMODE_LINK.rawValue: links.append(String(cString: path))
            default: continue
            }
        }
        return (links, submodules)
    }

    /// Whether the index holds a file under the folder `path` (tracked, or staged).
    func indexHasFiles(under path: String) throws -> Bool {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "read the index")
        defer { git_index_free(index) }
        var position = 0
        return git_index_find_prefix(&position, index, path + "/") == 0
    }

    /// The commit the submodule checked out at `path` (relative to the working tree) has, nil when it is not checked out.
    func checkedOutCommit(ofSubmodule path: String) -> GitOID? {
        guard let submodule = try? GitRepository(containing: workdir.appendingPathComponent(path)),
            submodule.workdir.standardizedFileURL.path == workdir.appendingPathComponent(path).standardizedFileURL.path
        else { return nil }
        return try? submodule.headCommit()
    }

    /// Whether the index holds the file at `path` (relative to the working tree), ignored by the rules or not.
    public func isTracked(_ path: String) throws -> Bool {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "read the index")
        defer { git_index_free(index) }
        return git_index_get_bypath(index, path, 0) != nil
    }

    /// Whether the file at `path` (relative to the working tree) is unknown to git: untracked or ignored.
    public func isUntracked(_ path: String) throws -> Bool {
        var flags: UInt32 = 0
        try check(git_status_file(&flags, pointer, path), "read the status of \(path)")
        return flags & (GIT_STATUS_WT_NEW.rawValue | GIT_STATUS_IGNORED.rawValue) != 0
    }

    // MARK: - Helpers

    private func withCommit<T>(_ commit: GitOID, _ body: (OpaquePointer?) throws -> T) throws -> T {
        var oid = commit.raw
        var object: OpaquePointer?
        try check(git_commit_lookup(&object, pointer, &oid), "read commit \(commit.short)")
        defer { git_commit_free(object) }
        return try body(object)
    }

    private func blobBytes(_ id: git_oid) throws -> [UInt8] {
        var oid = id
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, pointer, &oid), "read a file")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let raw = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    private func writeFile(_ url: URL, bytes: [UInt8], mode: mode_t) throws {
        // open() applies the umask, as a checkout does.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw GitError(message: "cannot create '\(url.path)': \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 else { throw GitError(message: "cannot write '\(url.path)': \(String(cString: strerror(errno)))") }
            written += result
        }
    }

    func check(_ status: Int32, _ what: String) throws {
        guard status < 0 else { return }
        throw GitError(message: "git could not \(what): \(Self.lastError())")
    }

    static func lastError() -> String {
        guard let error = git_error_last(), let message = error.pointee.message else { return "unknown error" }
        return String(cString: message)
    }
}
