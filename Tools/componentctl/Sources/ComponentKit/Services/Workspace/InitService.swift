public import Foundation
import Synchronization

/// `componentctl init`: makes a repository that holds SwiftPM packages a workspace (components.yaml and a baseline of
/// today's findings, so `check-layers` passes at once), or adds the packages that appeared since to one that is.
public enum InitService {
    /// What the command was asked to do.
    public struct Options: Sendable {
        /// Print the proposal; write nothing.
        public var dryRun = false
        /// Put every component in one layer instead of proposing layers from the graph.
        public var oneLayer = false

        /// Creates options.
        public init(dryRun: Bool = false, oneLayer: Bool = false) {
            self.dryRun = dryRun
            self.oneLayer = oneLayer
        }
    }

    /// The baseline file `init` writes, relative to the root.
    public static let baselineFile = "componentctl-baseline.json"

    /// Runs `init` in the folder `root`, reading manifests with `manifests`.
    public static func run(root: URL, options: Options, manifests: ManifestLoader) throws -> CommandResult {
        guard FileStatus.isFolder(root) else {
            throw ToolError("'\(root.path)' is no folder: run 'componentctl init' in the repository's top folder, or pass --root DIR.", status: .usage)
        }
        let adopted = FileManager.default.fileExists(atPath: root.appendingPathComponent(WorkspaceLoader.fileName).path)
        // A baseline of componentctl's (an earlier init that could not finish) may be replaced; a file of the team's may not.
        if !adopted, FileManager.default.fileExists(atPath: root.appendingPathComponent(baselineFile).path),
            (try? Baseline.load(root.appendingPathComponent(baselineFile))) == nil
        {
            throw ToolError(
                "\(baselineFile) exists, but no \(WorkspaceLoader.fileName): init would overwrite it. Move it away, then run 'componentctl init' again.",
                status: .usage)
        }
        let repository = try? GitRepository(containing: root)
        let found = PackageDiscovery.walk(root, repository: repository)
        let packages = try read(found.packages, in: root, manifests: manifests)
        if adopted { return try adopt(packages, root: root, options: options, manifests: manifests, repository: repository) }
        return try start(packages, projects: found.projects, root: root, options: options, repository: repository, manifests: manifests)
    }

    /// What componentctl writes in a workspace that is no one's to commit: its lock, journal and results, pin checkouts and
    /// pack folders, builds.
    public static let ignoredFolders = [".componentctl/", ".pin-*/", ".pack-*/", ".build/"]

    /// What `init` says of the patterns it added to `.gitignore`.
    private static func gitignoreNote(_ added: [String]) -> String {
        added.isEmpty ? "" : "; added \(added.joined(separator: ", ")) to .gitignore"
    }

    /// Adds to the root's `.gitignore` each of ``ignoredFolders`` git does not ignore yet; the patterns it added.
    private static func ignoreComponentctlsFolders(in root: URL, repository: GitRepository?) throws -> [String] {
        guard let repository else { return [] }
        // Ignored at the top and further down: `/.build/` leaves the packages' own `.build` folders in sight.
        let missing = try ignoredFolders.filter { pattern in
            let folder = pattern.replacingOccurrences(of: "*", with: "componentctl")
            return try !repository.isIgnored(folder) || (folder != ".componentctl/" && !repository.isIgnored("componentctl-probe/\(folder)"))
        }
        let file = root.appendingPathComponent(".gitignore")
        // A linked .gitignore (which git does not follow) leads outside what init may change.
        guard !missing.isEmpty, !FileStatus.isSymbolicLink(file) else { return [] }
        var text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += "# componentctl's own folders (its lock, results, pin checkouts, builds)\n" + missing.map { $0 + "\n" }.joined()
        try AtomicFile.write(Data(text.utf8), to: file)
        return missing
    }

    /// A package found, with its manifest when SwiftPM could read it.
    struct FoundPackage {
        var path: String
        var manifest: PackageManifest?
        var problem: String?
        /// The packages it depends on by path, as paths relative to the root.
        var dependencies: Set<String> = []
    }

    private static func read(_ paths: [String], in root: URL, manifests: ManifestLoader) throws -> [FoundPackage] {
        let results = Mutex<[String: FoundPackage]>([:])
        // What stops every reading (a request to stop, a setting of componentctl's) ends `init` before it writes.
        let stopped = Mutex<ToolError?>(nil)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let path = paths[index]
            var package = FoundPackage(path: path)
            do {
                let manifest = try manifests.load(packageIn: root.appendingPathComponent(path))
                package.manifest = manifest
                let base = LexicalPath.resolve(root.path)
                for dependency in manifest.dependencies {
                    guard let written = dependency.path else { continue }
                    let target = LexicalPath.resolve(written, from: base + "/" + path)
                    if target.hasPrefix(base + "/") { package.dependencies.insert(String(target.dropFirst(base.count + 1))) }
                }
            } catch let error as ToolError {
                stopped.withLock { $0 = $0 ?? error }
            } catch {
                package.problem = ToolError.describe(error) + ((error as? ManifestError)?.fix.map { "; \($0)" } ?? "")
            }
            results.withLock { $0[path] = package }
        }
        if let error = stopped.withLock({ $0 }) { throw error }
        let collected = results.withLock { $0 }
        return paths.compactMap { collected[$0] }
    }

    // MARK: A new workspace

    private static func start(
        _ packages: [FoundPackage], projects: [String], root: URL, options: Options, repository: GitRepository?, manifests: ManifestLoader
    ) throws -> CommandResult {
        var notes: [String] = []
        let named = names(for: packages, root: root, notes: &notes)
        let byPath = Dictionary(named.map { ($0.package.path, $0.name) }, uniquingKeysWith: { a, _ in a })
        var edges: [String: Set<String>] = [:]
        for (name, package) in named.map({ ($0.name, $0.package) }) {
            edges[name] = Set(package.dependencies.compactMap { byPath[$0] }).subtracting([name])
        }
        let proposal = LayerProposal(components: named.map(\.name), edges: edges, oneLayer: options.oneLayer)
        let apps = xcodeApps(of: projects, components: named, root: root, repository: repository)
        let yaml = InitYAML.render(
            root: root, components: named.map { ($0.name, $0.package.path) }, proposal: proposal, edges: edges, baseline: baselineFile, xcodeApps: apps)
        var workspace = try WorkspaceLoader.load(bytes: Array(yaml.utf8), root: root)
        workspace.manifests = manifests
        let findings = LayerChecker(analysis: try WorkspaceAnalysis.analyze(workspace)).findings()
        let summary = Self.summary(of: findings, components: named.count, proposal: proposal)
        if options.dryRun {
            return CommandResult(output: yaml + "\n" + summary, errors: notes.map { "note: \($0)\n" }.joined())
        }
        try Baseline(accepting: findings).save(root.appendingPathComponent(baselineFile))
        let ignored = try ignoreComponentctlsFolders(in: root, repository: repository)
        try AtomicFile.write(Data(yaml.utf8), to: root.appendingPathComponent(WorkspaceLoader.fileName))
        return CommandResult(
            output: "wrote \(WorkspaceLoader.fileName) and \(baselineFile)\(gitignoreNote(ignored))\n" + summary
                + "next: 'componentctl check-layers' passes now and fails on what is new; edit components.yaml's layers as you see them\n",
            errors: notes.map { "note: \($0)\n" }.joined())
    }

    /// A component name for each package: its SwiftPM name, made of the characters a name may hold, unique, and never
    /// the one SwiftPM refuses (a folder named like the root's or like another's, which SwiftPM would take for one package).
    private static func names(
        for packages: [FoundPackage], root: URL, notes: inout [String], takenNames: Set<String> = [], takenFolders: [String: String] = [:]
    ) -> [(name: String, package: FoundPackage)] {
        var named: [(name: String, package: FoundPackage)] = []
        var taken = takenNames
        var folders = takenFolders
        for package in packages {
            let folder = (package.path as NSString).lastPathComponent
            if let other = folders[folder.lowercased()] {
                notes.append("'\(package.path)' is left out: its folder has the name of '\(other)', and SwiftPM identifies a package by its folder name")
                continue
            }
            if folder.lowercased() == root.lastPathComponent.lowercased(),
                WorkspaceLoader.hasRootPackage(at: root)
            {
                notes.append("'\(package.path)' is left out: its folder has the name of the repository's folder, the root package's identity")
                continue
            }
            folders[folder.lowercased()] = package.path
            let wanted = safeName(package.manifest?.name ?? folder)
            var name = wanted
            var counter = 2
            while taken.contains(name.lowercased()) {
                name = "\(wanted)-\(counter)"
                counter += 1
            }
            taken.insert(name.lowercased())
            named.append((name, package))
            if let problem = package.problem { notes.append("SwiftPM cannot read '\(package.path)/Package.swift' (\(problem)); it is in the baseline") }
        }
        return named
    }

    /// An app for each Xcode project that links components: by their products' names or their folders.
    private static func xcodeApps(
        of projects: [String], components: [(name: String, package: FoundPackage)], root: URL, repository: GitRepository?
    ) -> [XcodeApp] {
        var taken = Set(components.map { $0.name.lowercased() })
        // A file a project lists but git does not track (made by a script, or ignored) is not in a clone: no app path.
        let prefix = repository?.relativePath(of: root).map { $0.isEmpty ? "" : $0 + "/" }
        let isTracked = { (path: String) -> Bool in
            guard let repository, let prefix else { return FileStatus.exists(root.appendingPathComponent(path)) }
            return (try? repository.isTracked(prefix + path)) == true || (try? repository.indexHasFiles(under: prefix + path)) == true
        }
        return projects.compactMap { project in
            let links = XcodeProjects.links(of: project, in: root)
            let members = components.filter { name, package in
                links.folders.contains(package.path) || links.products.contains(name)
                    || package.manifest?.products.contains { !$0.isExecutable && !$0.isPlugin && links.products.contains($0.name) } == true
            }.map(\.name)
            guard !members.isEmpty else { return nil }
            let wanted = safeName(((project as NSString).lastPathComponent as NSString).deletingPathExtension)
            var name = wanted
            var counter = 2
            while !taken.insert(name.lowercased()).inserted {
                name = "\(wanted)-\(counter)"
                counter += 1
            }
            return XcodeApp(
                name: name, project: project,
                paths: XcodeProjects.paths(
                    of: project, in: root, componentFolders: components.map(\.package.path), isTracked: isTracked),
                components: members)
        }
    }

    /// `name` with every character a component name may not hold made a `-`.
    static func safeName(_ name: String) -> String {
        let mapped = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
        let trimmed = mapped.drop { !($0.isLetter || $0.isNumber) }
        return trimmed.isEmpty ? "component" : String(trimmed)
    }

    private static func summary(of findings: [Diagnostic], components: Int, proposal: LayerProposal) -> String {
        var counts: [String: Int] = [:]
        for finding in findings { counts[finding.rule, default: 0] += 1 }
        let perLayer = proposal.order.map { layer in "\(layer) \(proposal.layers.values.filter { $0 == layer }.count)" }.joined(separator: ", ")
        var text = "\(components) component\(components == 1 ? "" : "s") (\(perLayer)); \(findings.count) finding\(findings.count == 1 ? "" : "s") today"
        text += counts.isEmpty ? "\n" : ":\n" + counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "  \($0.key): \($0.value)\n" }.joined()
        return text
    }

    // MARK: An adopted workspace

    private static func adopt(
        _ packages: [FoundPackage], root: URL, options: Options, manifests: ManifestLoader, repository: GitRepository?
    ) throws -> CommandResult {
        // A component whose package vanished is said, not refused: loading checks no folder.
        let workspace = try WorkspaceLoader.load(
            bytes: Array(try Data(contentsOf: root.appendingPathComponent(WorkspaceLoader.fileName))), root: root, checkingFolders: false)
        let known = Set(workspace.components.map(\.path))
        var notes: [String] = []
        for component in workspace.components
        where !FileManager.default.fileExists(atPath: workspace.folder(of: component).appendingPathComponent("Package.swift").path) {
            notes.append(
                "'\(component.name)' (\(component.path)) has no package any more: delete its entry from components.yaml"
            )
        }
        let fresh = packages.filter { !known.contains($0.path) }
        guard !fresh.isEmpty else {
            let ignored = options.dryRun ? [] : try ignoreComponentctlsFolders(in: root, repository: repository)
            return CommandResult(output: "no new packages" + gitignoreNote(ignored) + "\n", errors: notes.map { "note: \($0)\n" }.joined())
        }
        let named = names(
            for: fresh, root: root, notes: &notes, takenNames: Set(workspace.components.map { $0.name.lowercased() }),
            takenFolders: Dictionary(workspace.components.map { ($0.folderName.lowercased(), $0.path) }, uniquingKeysWith: { a, _ in a }))
        let byPath = Dictionary(workspace.components.map { ($0.path, $0.name) } + named.map { ($0.package.path, $0.name) }, uniquingKeysWith: { a, _ in a })
        let dependedOn = Set((packages.flatMap(\.dependencies)).compactMap { byPath[$0] })
        let layers = workspace.rules.layers
        let entries = named.map { entry -> (name: String, path: String, layer: String) in
            let dependsOnNone = entry.package.dependencies.compactMap { byPath[$0] }.isEmpty
            let layer = dependsOnNone ? layers[layers.count - 1] : dependedOn.contains(entry.name) && layers.count > 2 ? layers[1] : layers[0]
            return (entry.name, entry.package.path, layer)
        }
        let note = "added by 'componentctl init'"
        let bytes = try ComponentsFileEditor.addingComponents(in: workspace) { InitYAML.entries(entries, note: note, keyIndent: $0, fieldIndent: $1) }
        let text = InitYAML.entries(entries, note: note)
        var updated = try WorkspaceLoader.load(bytes: bytes, root: root, checkingFolders: false)
        updated.manifests = manifests
        let newFolders = entries.map { $0.path + "/" }
        let baselineURL = updated.checks.baseline.map { root.appendingPathComponent($0) }
        let current = try baselineURL.flatMap { FileManager.default.fileExists(atPath: $0.path) ? try Baseline.load($0) : nil } ?? Baseline(accepting: [])
        // What the baseline does not accept yet: the new packages' findings are accepted; others (the new packages changed
        // what another's imports mean) are the team's to read.
        let unaccepted = current.apply(to: LayerChecker(analysis: try WorkspaceAnalysis.analyze(updated)).findings()).new
        let newFindings = unaccepted.filter { finding in newFolders.contains { finding.path.hasPrefix($0) } }
        let elsewhere = unaccepted.count - newFindings.count
        if elsewhere > 0 {
            notes.append(
                "\(elsewhere) finding\(elsewhere == 1 ? "" : "s") outside the new packages \(elsewhere == 1 ? "is" : "are") not in the baseline: "
                    + "'componentctl check-layers' shows \(elsewhere == 1 ? "it" : "them"); fix \(elsewhere == 1 ? "it" : "them"), "
                    + "or accept \(elsewhere == 1 ? "it" : "them") with 'check-layers --write-baseline'")
        }
        let summary = "\(entries.count) new component\(entries.count == 1 ? "" : "s"): \(entries.map { "\($0.name) (\($0.layer))" }.joined(separator: ", "))\n"
        if options.dryRun { return CommandResult(output: text + "\n" + summary, errors: notes.map { "note: \($0)\n" }.joined()) }
        if let baselineURL, !newFindings.isEmpty { try current.adding(newFindings).save(baselineURL) }
        let ignored = try ignoreComponentctlsFolders(in: root, repository: repository)
        try AtomicFile.write(Data(bytes), to: root.appendingPathComponent(WorkspaceLoader.fileName))
        let accepted =
            updated.checks.baseline == nil || newFindings.isEmpty
            ? "" : newFindings.count == 1 ? "; its finding is in the baseline" : "; their \(newFindings.count) findings are in the baseline"
        return CommandResult(output: summary.dropLast() + accepted + gitignoreNote(ignored) + "\n", errors: notes.map { "note: \($0)\n" }.joined())
    }
}
