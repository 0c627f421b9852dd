import Foundation

/// What a component's build reads outside its own folder, found in the working tree: the packages it depends on by
/// path, transitively, followed through symbolic links to where they really are, and what each of them is to git.
///
/// `componentctl hash` keys a component by these, and `affected` compares them between two commits, so the two never
/// disagree on what an input is.
struct BuildInputs {
    /// How git knows a package folder a component depends on.
    enum Source: Hashable {
        /// Its files are tracked (or staged): keyed by its tree.
        case tracked
        /// It lies in the submodule at this path: keyed by the submodule's commit.
        case submodule(String)
        /// It is a folder components.yaml declares generated, from these inputs.
        case generated(folder: String, from: [String])
        /// Git ignores it: keyed by its files on disk (no commit has it, so `affected` cannot see it change).
        case ignored
    }

    /// What one component's build reads besides its folder, by repository path.
    struct Found {
        /// Components it reaches by path through a link (text comparison of paths misses these edges).
        var components = Set<String>()
        /// Package folders that are no component, with how git knows each.
        var packages: [String: Source] = [:]
        /// Symbolic links on the way to a package: a link that changes its target changes the build.
        var links = Set<String>()
        /// Files and folders outside the component's packages that links inside them lead to (a build reads through them).
        var linked = Set<String>()
        /// Manifests SwiftPM cannot evaluate, or dependencies in them (`file:line`) it names by neither path nor URL: inputs no
        /// key can follow.
        var unreadable: [String] = []
        /// The path (as written) by which it depends on the repository's root package, whose targets may take their sources
        /// from anywhere in the repository: an input no key can follow either.
        var rootPackage: String?
    }

    private let context: VersionedWorkspace
    private let componentsByFolder: [String: Component]
    /// Every symbolic link git tracks, and, with a status of the working tree, every untracked one (a build reads through
    /// it before it is committed), sorted.
    private let links: [String]
    /// Each submodule's path, with the commit the superproject records for it.
    let submodules: [String: GitOID]
    private let generated: [String: [String]]
    /// The working tree's path, without a trailing slash.
    private let workdir: String
    private let linkTargets = LinkTargets()
    /// Where each path (its names, `.` and `..` applied) leads, once walked.
    private let walks = Walks()

    /// Reads the index's links and submodules, unless `status` (of the same repository) read them already, with the
    /// untracked links it lists.
    init(_ context: VersionedWorkspace, status: WorkingTreeStatus? = nil) throws {
        self.context = context
        workdir = context.repository.workdir.path
        componentsByFolder = Dictionary(
            context.workspace.components.map { (context.repositoryPath(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        let index = try status?.index ?? context.repository.indexLinksAndSubmodules()
        let untracked = (status?.changed ?? []).filter { FileStatus.isSymbolicLink(context.repository.workdir.appendingPathComponent($0)) }
        links = Array(Set(index.links + untracked)).sorted()
        submodules = index.submodules
        generated = Dictionary(
            context.workspace.generated.map { (context.repositoryPath($0.key), $0.value.map(context.repositoryPath)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The packages `component` depends on by path, transitively; throws naming a path that leaves the repository
    /// or a folder no commit could have.
    func resolve(_ component: Component, manifest: PackageManifest?) throws -> Found {
        var found = Found()
        let start = context.repositoryPath(of: component)
        found.unreadable += Self.unreadable(manifest, at: start + "/Package.swift")
        var pending = ((manifest?.dependencies ?? []).compactMap(\.path) + versionSpecificPaths(in: start, into: &found)).map {
            (written: $0, from: start, by: component.name)
        }
        var seen = Set<String>()
        addSubmodules(inside: start, to: &found)
        try followLinks(inside: start, by: component.name, into: &found)
        while let (written, from, by) = pending.popLast() {
            let (real, links) = try follow(written, from: from, by: by)
            found.links.formUnion(links)
            if let other = componentsByFolder[real] {
                if !links.isEmpty { found.components.insert(other.name) }
                continue
            }
            guard !real.isEmpty else {
                found.rootPackage = found.rootPackage ?? written
                continue
            }
            guard seen.insert(real).inserted else { continue }
            found.packages[real] = try source(of: real, written: written, by: by)
            addSubmodules(inside: real, to: &found)
            try followLinks(inside: real, by: by, into: &found)
            let paths = pathDependencies(ofManifestAt: real + "/Package.swift", into: &found) + versionSpecificPaths(in: real, into: &found)
            pending += paths.map { ($0, real, by) }
        }
        return found
    }

    /// Adds the submodules inside the package folder `folder`: its tree records only their commits, while a build compiles
    /// what is checked out there, edits included.
    private func addSubmodules(inside folder: String, to found: inout Found) {
        for submodule in submodules.keys where submodule.hasPrefix(folder + "/") { found.packages[submodule] = .submodule(submodule) }
    }

    /// What of `manifest` (at the repository path `path`) could not be read: the whole manifest (SwiftPM cannot evaluate it),
    /// or each dependency SwiftPM names neither by a path nor by a URL.
    private static func unreadable(_ manifest: PackageManifest?, at path: String) -> [String] {
        guard let manifest else { return [path] }
        return manifest.dependencies.filter { $0.path == nil && $0.url == nil }.map { "\(path):\($0.location.line)" }
    }

    /// The path dependencies of the version-specific manifests (`Package@swift-6.0.swift`) in the package folder `folder`:
    /// SwiftPM reads one of them instead of Package.swift, so each may add inputs.
    private func versionSpecificPaths(in folder: String, into found: inout Found) -> [String] {
        let names = FileStatus.entries(inFolderAt: workdir + "/" + folder).map(\.name).filter { $0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift") }
        return names.sorted().flatMap { pathDependencies(ofManifestAt: folder + "/" + $0, into: &found) }
    }

    /// The path dependencies of the manifest at the repository path `path`, noting in `found` what the reader cannot
    /// evaluate there; none when there is no such file (a submodule not checked out, say, which is said elsewhere).
    private func pathDependencies(ofManifestAt path: String, into found: inout Found) -> [String] {
        guard let bytes = FileManager.default.contents(atPath: workdir + "/" + path) else { return [] }
        let folder = URL(fileURLWithPath: workdir + "/" + path).deletingLastPathComponent()
        let read = try? context.workspace.manifests.load(Array(bytes), folder: folder)
        found.unreadable += Self.unreadable(read, at: path)
        return (read?.dependencies ?? []).compactMap(\.path)
    }

    /// Adds where the tracked links inside the package folder `folder` lead, when that is outside it: SwiftPM reads a
    /// linked source file's target, which the folder's own tree does not hold.
    private func followLinks(inside folder: String, by component: String, into found: inout Found) throws {
        for link in links where link.hasPrefix(folder + "/") {
            let (real, via) = try follow(String(link.dropFirst(folder.count + 1)), from: folder, by: component, link: link)
            guard real != folder, !real.hasPrefix(folder + "/") else { continue }
            found.links.formUnion(via)
            // A folder a link leads to may hold links that lead further: SwiftPM reads through those too.
            if found.linked.insert(real).inserted { try followLinks(inside: real, by: component, into: &found) }
        }
    }

    /// The repository path `written` (relative to the package folder `from`) reaches once every link on the way is
    /// followed, and the links followed.
    /// `link` names the link inside a package that `written` was read from, if it was.
    private func follow(_ written: String, from: String, by component: String, link: String? = nil) throws -> (String, [String]) {
        let outside = { [workdir] in Self.outside(written, by: component, link: link, workdir: workdir) }
        guard !written.hasPrefix("/") || written.hasPrefix(workdir + "/") else { throw outside() }
        let start = written.hasPrefix("/") ? String(written.dropFirst(workdir.count + 1)) : (from.isEmpty ? "" : from + "/") + written
        let names = try lexical(start, outside: outside)
        // Components reach the same packages from many folders: each path is walked once.
        let key = names.joined(separator: "/")
        if let known = walks.known[key] { return known }
        var remaining = Array(names.reversed())
        var current = ""
        var links: [String] = []
        var hops = 0
        while let next = remaining.popLast() {
            // `..` after a link climbs from where the link led, as the kernel resolves it: `current` is a real folder.
            if next == ".." {
                guard !current.isEmpty else { throw outside() }
                current = current.split(separator: "/").dropLast().joined(separator: "/")
                continue
            }
            let path = current.isEmpty ? next : current + "/" + next
            guard let target = linkTargets.target(of: workdir + "/" + path) else {
                current = path
                continue
            }
            hops += 1
            guard hops <= 40 else { throw ToolError("The path \(written) of '\(component)' goes through a loop of links.", status: .usage) }
            links.append(path)
            let absolute = target.hasPrefix("/")
            guard !absolute || target.hasPrefix(workdir + "/") else { throw outside() }
            let relative = absolute ? String(target.dropFirst(workdir.count + 1)) : (current.isEmpty ? target : current + "/" + target)
            remaining += relative.split(separator: "/").filter { $0 != "." }.map(String.init).reversed()
            current = ""
        }
        guard current != ".git", !current.hasPrefix(".git/") else {
            throw ToolError("'\(component)' depends on \(written), which leads into .git, git's own store: correct the path.", status: .usage)
        }
        walks.known[key] = (current, links)
        return (current, links)
    }

    /// The error for `written`, a path of `component` that leads out of the repository (through the link `link`, if named).
    private static func outside(_ written: String, by component: String, link: String?, workdir: String) -> ToolError {
        guard let link else {
            return ToolError(
                "'\(component)' depends on the package at \(written), which is outside the repository (or reached through a link out of it), "
                    + "so no key can follow its changes. Move it into the repository, or make it a component of components.yaml.", status: .usage)
        }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: workdir + "/" + link)) ?? "?"
        return ToolError(
            "'\(component)' holds the link \(link), which leads out of the repository (to \(target)): SwiftPM reads through it, so no key "
                + "can follow what it builds. Point the link inside the repository, or remove it (git rm \(link)).", status: .usage)
    }

    /// The parts of `path` with `.` and `..` applied; throws `outside` when it climbs out of the repository.
    private func lexical(_ path: String, outside: () -> ToolError) throws -> [String] {
        guard let parts = LexicalPath.parts(of: path, aboveTop: .fail) else { throw outside() }
        return parts.map(String.init)
    }

    /// How git knows the package folder `real`.
    private func source(of real: String, written: String, by component: String) throws -> Source {
        if let submodule = submodules.keys.first(where: { real == $0 || real.hasPrefix($0 + "/") }) { return .submodule(submodule) }
        if try context.repository.indexHasFiles(under: real) { return .tracked }
        if let folder = generated.keys.first(where: { real == $0 || real.hasPrefix($0 + "/") }), let from = generated[folder] {
            return .generated(folder: folder, from: from)
        }
        let url = context.repository.workdir.appendingPathComponent(real)
        if FileStatus.isRegularFile(url) {
            throw ToolError("'\(component)' depends on \(written) (\(real)), which is a file, not a package folder: correct the path.", status: .usage)
        }
        guard FileStatus.isFolder(url) else {
            throw ToolError(
                "'\(component)' depends on the package at \(written) (\(real)), which does not exist. Correct the path, or declare the folder "
                    + "under 'generated:' in components.yaml with the inputs that make it.", status: .usage)
        }
        guard try context.repository.isIgnored(real + "/") else {
            throw ToolError(
                "'\(component)' depends on the package at \(real), which git does not track, so a clone would not have it and no key can "
                    + "follow it. Commit it, or declare it under 'generated:' in components.yaml with the inputs that make it.", status: .usage)
        }
        return .ignored
    }
}

/// Where each path a component depends on leads, and the links on the way: the same for every component that names it.
private final class Walks {
    var known: [String: (String, [String])] = [:]
}

/// What each path of the working tree links to (nil for anything that is no link), looked up once: the components of a
/// workspace share the folders on their way to each other.
private final class LinkTargets {
    private var known: [String: String?] = [:]

    func target(of path: String) -> String? {
        if let target = known[path] { return target }
        var info = stat()
        // lstat first: asking Foundation for a link's destination throws an error for every other file, which costs.
        let target =
            lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK ? try? FileManager.default.destinationOfSymbolicLink(atPath: path) : nil
        known[path] = target
        return target
    }
}
