import Foundation

/// `componentctl cached`: runs a command unless it already passed with the same inputs, the steps of a
/// test script that are not components (a lint, a tool's own tests, a whole-workspace check).
public enum StepService {
    /// A command and what its result depends on.
    public struct Step: Sendable {
        /// Its name in the cache and in messages.
        public var name: String
        /// The program and its arguments.
        public var command: [String]
        /// Files and folders, relative to the workspace root (`.` is all of it).
        public var inputs: [String]
        /// Package folders whose own folder and local dependencies (read from their manifests) are inputs.
        public var packages: [String]
        /// Environment variables whose values are inputs.
        public var variables: [String]

        /// A step.
        public init(name: String, command: [String], inputs: [String], packages: [String], variables: [String]) {
            self.name = name
            self.command = command
            self.inputs = inputs
            self.packages = packages
            self.variables = variables
        }
    }

    /// The key of `step`: its name and command, each input's git object id as on disk, the variables, and
    /// the toolchain and platform of `environment`.
    public static func key(_ step: Step, in context: VersionedWorkspace, environment: KeyEnvironment, variables: [String: String]) throws -> ComponentKey {
        let trees = try WorkingTrees(context.repository)
        var recipe = ["componentctl step key 1", "step \(step.name)", "command \(String(decoding: try JSONEncoder().encode(step.command), as: UTF8.self))"]
        var uncommitted = false
        let inputs = try step.inputs.flatMap { try checkedInputs($0, root: context.workspace.root, repository: context.repository) }
        for input in try Set(inputs + packageFolders(step.packages, root: context.workspace.root, manifests: context.workspace.manifests)).sorted() {
            let path = context.repositoryPath(input == "." ? "" : input)
            recipe.append("input \(input) \(try trees.objectID(of: path)?.hex ?? "none")")
            uncommitted = uncommitted || trees.isDirty(path)
        }
        for name in Set(step.variables).sorted() { recipe.append("env \(name)=\(variables[name].map { "'\($0)'" } ?? "(unset)")") }
        recipe += environment.recipe.filter { !$0.hasPrefix("configuration ") }
        return ComponentKey(name: step.name, key: ComponentKeys.digest(recipe), recipe: recipe, uncommitted: uncommitted, inexact: [])
    }

    /// Runs `step` in the current folder unless `key` already passed in `cache`; returns its exit status and
    /// records a pass. `say` gets the one line that tells which happened.
    public static func run(_ step: Step, key: ComponentKey, cache: ResultsCache?, say: (String) -> Void) throws -> Int32 {
        if let cache, let passed = cache.passed(key.key, action: "step") {
            say(
                "\(step.name): cached (key \(key.key.prefix(12)), passed \(passed.finished) in \(String(format: "%.1fs", passed.seconds))): its inputs did not change\n"
            )
            return 0
        }
        guard let program = step.command.first else { throw ToolError("Give the command to run after --.", status: .usage) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: GraphRenderer.findExecutable(program, path: ProcessInfo.processInfo.environment["PATH"]) ?? program)
        process.arguments = Array(step.command.dropFirst())
        let start = Date()
        let stop: StopForwarding.Child
        do {
            stop = try StopForwarding.start(process)
        } catch {
            throw ToolError("Cannot run '\(program)': \(ToolError.describe(error))", status: .environment)
        }
        process.waitUntilExit()
        if let signal = stop.finish() {
            throw StopForwarding.stopped(by: signal, while: "running \(step.name)")
        }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        if status == 0, let cache {
            cache.record(PassedResult(job: step.name, action: "step", key: key.key, seconds: Date().timeIntervalSince(start)))
        }
        return status
    }

    private static func normalized(_ input: String) -> String {
        let trimmed = input.hasPrefix("./") && input.count > 2 ? String(input.dropFirst(2)) : input
        return trimmed.hasSuffix("/") && trimmed.count > 1 ? String(trimmed.dropLast()) : trimmed
    }

    /// `input` relative to `root`, normalized, and, when links lead elsewhere in the workspace, the path they lead to as
    /// well; throws for an input that is absolute, outside the workspace, absent, inside `.git` or ignored by git, since a
    /// step keyed on what git does not see would record a pass that no later change could undo.
    static func checkedInputs(_ input: String, root: URL, repository: GitRepository) throws -> [String] {
        let fix = "--input takes a file or folder git tracks inside the workspace, relative to its root (like --input Packages/Business/Cart)."
        guard !input.isEmpty, !input.hasPrefix("/") else {
            throw ToolError("--input '\(input)' is \(input.isEmpty ? "empty" : "an absolute path"): \(fix)", status: .usage)
        }
        let lexicalRoot = root.standardizedFileURL.path
        let realRoot = root.standardizedFileURL.resolvingSymlinksInPath().path
        let url = root.appendingPathComponent(input).standardizedFileURL
        let resolved = url.resolvingSymlinksInPath().path
        guard url.path == lexicalRoot || url.path.hasPrefix(lexicalRoot + "/"), resolved == realRoot || resolved.hasPrefix(realRoot + "/") else {
            throw ToolError("--input '\(input)' is outside the workspace \(root.path): \(fix)", status: .usage)
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ToolError("--input '\(input)' does not exist in the workspace \(root.path): check its spelling; \(fix)", status: .usage)
        }
        let relative = String(url.path.dropFirst(lexicalRoot.count)).drop { $0 == "/" }
        let target = String(resolved.dropFirst(realRoot.count)).drop { $0 == "/" }
        for path in Set([String(relative), String(target)]) where !path.isEmpty {
            if path == ".git" || path.hasPrefix(".git/") {
                throw ToolError("--input '\(input)' is inside .git, which is git's own store, not the workspace's content: \(fix)", status: .usage)
            }
            let repositoryPath = repository.relativePath(of: root.appendingPathComponent(path)) ?? path
            if try repository.isIgnored(repositoryPath + (FileStatus.isFolder(root.appendingPathComponent(path)) ? "/" : "")) {
                throw ToolError("--input '\(input)' is ignored by git, so its changes are not seen and the step would stay cached: \(fix)", status: .usage)
            }
        }
        return Array(Set([relative.isEmpty ? "." : String(relative), target.isEmpty ? "." : String(target)])).sorted()
    }

    /// `packages` and every package they depend on by path, relative to `root`; throws for one outside it.
    static func packageFolders(_ packages: [String], root: URL, manifests: ManifestLoader) throws -> [String] {
        var seen = Set<String>()
        var queue = packages.map(normalized)
        // Lexically: a root reached through a link (macOS's /tmp) must not be resolved on one side only.
        let base = LexicalPath.resolve(root.path)
        for package in queue where package.hasPrefix("/") || !LexicalPath.resolve(package, from: base).hasPrefix(base + "/") {
            throw ToolError(
                "--package '\(package)' is \(package.hasPrefix("/") ? "an absolute path" : "outside the workspace"): --package takes a package "
                    + "folder inside the workspace, relative to its root (name one outside with --input instead, once it is in the repository).",
                status: .usage)
        }
        while let package = queue.popLast() {
            guard seen.insert(package).inserted else { continue }
            let folder = root.appendingPathComponent(package)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) else {
                throw ToolError("'\(package)' holds no Package.swift: --package takes a package folder, relative to the workspace root.", status: .usage)
            }
            for dependency in try manifests.load(packageIn: folder).dependencies {
                guard let path = dependency.path else { continue }
                let resolved = LexicalPath.resolve(path, from: LexicalPath.resolve(package, from: base))
                guard resolved.hasPrefix(base + "/") else {
                    throw ToolError("'\(package)' depends on '\(path)', outside the workspace: name it with --input instead.", status: .usage)
                }
                queue.append(String(resolved.dropFirst(base.count + 1)))
            }
        }
        return Array(seen)
    }
}
