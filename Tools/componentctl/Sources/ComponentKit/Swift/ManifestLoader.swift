public import Foundation
import PluginFeed
import Synchronization

/// Reads a package's manifest as SwiftPM reads it, never guessing: the static ``ManifestReader`` answers when it read
/// everything with certainty; otherwise SwiftPM evaluates the manifest (`swift package dump-package`), and its answer is
/// kept by the manifest's text, the toolchain and the environment variables the manifest reads, so each change costs one
/// evaluation (about half a second).
public struct ManifestLoader: Sendable {
    /// The swift executable that evaluates manifests.
    public var swift: String
    /// The environment manifests are evaluated in.
    public var environment: [String: String]

    /// A loader using the swift `environment` names (`COMPONENTCTL_SWIFT`, else the PATH's), keeping answers in the user's cache
    /// folder of componentctl (`$XDG_CACHE_HOME/componentctl`, else `~/.cache/componentctl`).
    public init(environment: [String: String]) {
        self.environment = environment
        swift = BuildPlanner.swiftExecutable(environment: environment)
    }

    /// SwiftPM's answers in this process, failures included: whatever reads a manifest again in one command, it is
    /// evaluated once (a manifest that never ends costs one time limit, not one per reading).
    private let answers = Answers()

    private final class Answers: Sendable {
        struct Question: Hashable {
            var bytes: [UInt8]
            var folder: String
            var environment: [String: String]
        }

        let known = Mutex<[Question: Result<PackageManifest, ManifestError>]>([:])
        let toolchain = Mutex<[Int]?>(nil)
    }

    /// The manifest of the package in `folder`: the `Package@swift-<version>.swift` SwiftPM picks for this toolchain, else
    /// `Package.swift`.
    public func load(packageIn folder: URL) throws -> PackageManifest {
        let file = try manifestFile(in: folder)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ManifestError(message: "\(file.lastPathComponent) cannot be read")
        }
        return try load(Array(data), folder: folder)
    }

    /// The manifest whose text is `bytes`, of the package in `folder` (which need not exist: a manifest read from a
    /// commit).
    public func load(_ bytes: [UInt8], folder: URL) throws -> PackageManifest {
        let read: PackageManifest
        do {
            read = try ManifestReader.read(bytes)
        } catch {
            // What the static reader takes for broken may still compile: SwiftPM has the last word, and its words are clearer.
            return try evaluate(bytes, folder: folder, surroundings: .unknown)
        }
        // A tools version newer than the toolchain's is SwiftPM's to refuse, in its words.
        let tooNew = toolchainVersion().map { $0.lexicographicallyPrecedes(read.toolsVersion) } ?? false
        return read.unresolved.isEmpty && !tooNew ? read : try evaluate(bytes, folder: folder, surroundings: read.surroundings)
    }

    /// The toolchain's version (`[6, 3, 1]`), asked once per process; nil when swift cannot say.
    private func toolchainVersion() -> [Int]? {
        if let known = answers.toolchain.withLock({ $0 }) { return known }
        guard let text = try? ToolchainVersion.of(swift: swift, environment: environment) else { return nil }
        let version = Self.version(ofToolchain: text)
        answers.toolchain.withLock { $0 = version }
        return version
    }

    /// The manifest file SwiftPM reads in `folder`: the `Package@swift-X.Y.Z.swift`, `-X.Y` or `-X` file naming the
    /// toolchain's own version, whatever it declares; else, of the `Package@swift-...` files, the one of the highest version
    /// not above the toolchain's, if the tools version it declares is above the one `Package.swift` declares; else
    /// `Package.swift`.
    func manifestFile(in folder: URL) throws -> URL {
        let regular = folder.appendingPathComponent("Package.swift")
        let names = FileStatus.entries(inFolderAt: folder.path).map(\.name).compactMap { name in Self.versionOfSpecificManifest(name).map { (name, $0) } }
        guard !names.isEmpty else { return regular }
        let toolchain = Self.version(ofToolchain: try ToolchainVersion.of(swift: swift, environment: environment))
        let exact = ["\(toolchain[0]).\(toolchain[1]).\(toolchain[2])", "\(toolchain[0]).\(toolchain[1])", "\(toolchain[0])"]
        if let name = exact.map({ "Package@swift-\($0).swift" }).first(where: { name in names.contains { $0.0 == name } }) {
            return folder.appendingPathComponent(name)
        }
        let candidate = names.filter { !toolchain.lexicographicallyPrecedes($0.1) }.max { $0.1.lexicographicallyPrecedes($1.1) }
        guard let candidate else { return regular }
        let specific = folder.appendingPathComponent(candidate.0)
        return Self.declaredToolsVersion(of: regular).lexicographicallyPrecedes(Self.declaredToolsVersion(of: specific)) ? specific : regular
    }

    /// The tools version the manifest `file` declares; `[0, 0, 0]` when it declares none or cannot be read.
    private static func declaredToolsVersion(of file: URL) -> [Int] {
        PackageManifest.toolsVersion(in: Array(FileManager.default.contents(atPath: file.path) ?? Data()))
    }

    /// `[6, 0, 0]` for `Package@swift-6.swift`, `[5, 9, 0]` for `Package@swift-5.9.swift`; nil for other names.
    static func versionOfSpecificManifest(_ name: String) -> [Int]? {
        guard name.hasPrefix("Package@swift-"), name.hasSuffix(".swift") else { return nil }
        let numbers = name.dropFirst("Package@swift-".count).dropLast(".swift".count).split(separator: ".", omittingEmptySubsequences: false)
        let parsed = numbers.compactMap { Int($0) }
        guard (1...3).contains(numbers.count), parsed.count == numbers.count else { return nil }
        return parsed + Array(repeating: 0, count: 3 - parsed.count)
    }

    /// `[6, 3, 1]` for the `swift --version` text "Swift version 6.3.1 (swift-6.3.1-RELEASE)..."; a toolchain that
    /// does not say counts as the newest.
    static func version(ofToolchain text: String) -> [Int] {
        guard let range = text.range(of: "Swift version ") else { return [Int.max, 0, 0] }
        let word = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        let numbers = word.split(separator: ".").compactMap { Int($0) }
        return numbers.isEmpty ? [Int.max, 0, 0] : Array((numbers + [0, 0, 0]).prefix(3))
    }

    /// SwiftPM's evaluation of the manifest `bytes` of the package in `folder`, whatever the static reader could read.
    public func evaluatedBySwiftPM(_ bytes: [UInt8], folder: URL) throws -> PackageManifest {
        let surroundings = (try? ManifestReader.read(bytes))?.surroundings ?? .unknown
        return try evaluate(bytes, folder: folder, surroundings: surroundings)
    }

    /// SwiftPM's evaluation of the manifest `bytes`, from the cache when the same text was evaluated by the same toolchain
    /// with the same values of the variables it reads.
    private func evaluate(_ bytes: [UInt8], folder: URL, surroundings: ManifestSurroundings) throws -> PackageManifest {
        let question = Answers.Question(bytes: bytes, folder: folder.path, environment: environment)
        if let known = answers.known.withLock({ $0[question] }) { return try known.get() }
        do {
            let manifest = try evaluateOnce(bytes, folder: folder, surroundings: surroundings)
            answers.known.withLock { $0[question] = .success(manifest) }
            return manifest
        } catch let error as ManifestError {
            answers.known.withLock { $0[question] = .failure(error) }
            throw error
        }
    }

    private func evaluateOnce(_ bytes: [UInt8], folder: URL, surroundings: ManifestSurroundings) throws -> PackageManifest {
        let entry = try cacheEntry(for: bytes, surroundings: surroundings)
        if let entry, let data = FileManager.default.contents(atPath: entry.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let dumpedIn = object["folder"] as? String,
            let dump = object["dump"] as? [String: Any]
        {
            return DumpedManifest.manifest(from: dump, bytes: bytes, folder: dumpedIn)
        }
        let (dump, dumpedIn) = try dumpPackage(bytes, folder: folder, inPlace: surroundings == .unknown)
        if let entry, let object = try? JSONSerialization.jsonObject(with: dump) as? [String: Any] {
            // Remembering is an optimization: a cache that cannot be written costs the next run one more evaluation.
            if let data = try? JSONSerialization.data(withJSONObject: ["folder": dumpedIn, "dump": object]),
                (try? FileStatus.createFolder(entry.deletingLastPathComponent(), purpose: "the evaluated manifests")) != nil
            {
                try? AtomicFile.write(data, to: entry)
            }
        }
        guard let object = try? JSONSerialization.jsonObject(with: dump) as? [String: Any] else {
            throw ManifestError(message: "'swift package dump-package' printed no JSON object")
        }
        return DumpedManifest.manifest(from: object, bytes: bytes, folder: dumpedIn)
    }

    /// Where SwiftPM's answer for `bytes` is kept; nil when it must be asked every time (the manifest reads files or the
    /// whole environment) or there is no cache folder.
    private func cacheEntry(for bytes: [UInt8], surroundings: ManifestSurroundings) throws -> URL? {
        guard case .environment(let variables) = surroundings, let folder = ResultsCache.userCacheFolder(environment) else { return nil }
        let toolchain = try ToolchainVersion.of(swift: swift, environment: environment)
        var key = Data("componentctl manifest 1\n\(toolchain)\n".utf8)
        for variable in variables { key += Data("\(variable)=\(environment[variable].map { "+\($0)" } ?? "-")\n".utf8) }
        key += Data(bytes)
        return folder.appendingPathComponent("manifests").appendingPathComponent(Digest.sha256(key) + ".json")
    }

    /// Runs `swift package dump-package` on `bytes`: in `folder` itself when `inPlace` (a manifest that reads its folder)
    /// and it holds that text, else in a temporary folder of its own, nested deep enough for any `../` of a path
    /// dependency to stay inside it. Returns SwiftPM's JSON and the folder it evaluated the manifest in.
    private func dumpPackage(_ bytes: [UInt8], folder: URL, inPlace: Bool) throws -> (Data, String) {
        Self.removeFoldersOfEndedRuns()
        // Everything of the evaluation goes in a folder of its own, SwiftPM's temporary files (its lock, the compiled
        // manifest) too, so nothing is left once it is removed.
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.folderPrefix)\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: top) }
        let temporary = top.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let onDisk = try? manifestFile(in: folder)
        if inPlace, let onDisk, FileManager.default.contents(atPath: onDisk.path) == Data(bytes) {
            return (try runDumpPackage(in: folder, temporary: temporary), folder.path)
        }
        let package = top.appendingPathComponent(Array(repeating: "p", count: 32).joined(separator: "/"))
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data(bytes).write(to: package.appendingPathComponent("Package.swift"))
        return (try runDumpPackage(in: package, temporary: temporary), package.path)
    }

    /// The name of the temporary folders evaluations run in, before the process id of the componentctl that made them.
    static let folderPrefix = "componentctl-manifest-"

    /// Removes the evaluation folders a componentctl left when it was killed (those whose process no longer runs), and
    /// ends what still runs of their evaluations: SwiftPM and the manifest outlive a componentctl killed with SIGKILL.
    private static func removeFoldersOfEndedRuns() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(folderPrefix) {
            guard let pid = pid_t(name.dropFirst(folderPrefix.count).prefix { $0.isNumber }), pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let leftover = ProcessTree.processes(mentioning: name)
            for process in leftover { kill(process, SIGKILL) }
            // A killed process may still write into the folder until it is gone.
            ProcessTree.waitUntilEnded(leftover, seconds: 2)
            for attempt in 0..<3 {
                if (try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))) != nil { break }
                if attempt < 2 { usleep(50_000) }
            }
        }
    }

    private func runDumpPackage(in folder: URL, temporary: URL) throws -> Data {
        let run: ProcessRunner.Output
        let limit = try timeout()
        do {
            run = try ProcessRunner.run(
                URL(fileURLWithPath: swift), ["package", "--package-path", folder.path, "dump-package"],
                environment: environment.merging(["TMPDIR": temporary.path]) { _, new in new }, timeout: limit)
        } catch let error as ToolError where error.exitStatus.isStop {
            throw error
        } catch is ProcessRunner.TimedOut {
            // The limit is no part of the message: a baseline accepting the finding holds whatever limit a machine sets.
            throw ManifestError(
                message: "SwiftPM did not finish evaluating it in the time allowed (a manifest that never ends?)",
                fix: "make it end, or give it longer than \(limit.formatted(.number)) s with \(Self.timeoutVariable)=<seconds>")
        } catch {
            throw ManifestError(
                message: "the static reader cannot evaluate it, and SwiftPM could not be run to do so ('\(swift)': \(ToolError.describe(error))); "
                    + "set COMPONENTCTL_SWIFT to a swift executable")
        }
        guard run.status == 0 else {
            // Paths relative to the package, as a finding's message (and a baseline of it) must read on any machine.
            let text = run.errorText.replacingOccurrences(of: folder.path + "/", with: "").replacingOccurrences(of: folder.path, with: ".")
            // The compiler's own lines (`Package.swift:3:9: error: ...`) say what is wrong; SwiftPM's summary quotes the whole command,
            // and its "invalid manifests at" only says where.
            let all = text.split(separator: "\n").filter { $0.contains("error:") }
            let errors = all.count > 1 ? all.filter { !$0.contains("invalid manifests at") } : all
            let compiler = errors.filter { $0.contains(".swift:") && $0.contains(": error:") && !$0.contains("Invalid manifest") }
            let quoted = (compiler.isEmpty ? errors.suffix(1) : compiler.prefix(3)).map { $0.trimmingCharacters(in: .whitespaces) }
            throw ManifestError(
                message: "SwiftPM cannot evaluate it: "
                    + (quoted.isEmpty ? text.trimmingCharacters(in: .whitespacesAndNewlines) : quoted.joined(separator: "; ")),
                location: Self.firstErrorLocation(in: text))
        }
        return run.standardOutput
    }

    /// The variable naming how many seconds one evaluation may take.
    static let timeoutVariable = "COMPONENTCTL_MANIFEST_TIMEOUT"

    /// How long one evaluation may take: ``timeoutVariable``'s seconds, else two minutes (a cold evaluation takes about one
    /// second).
    private func timeout() throws -> Double {
        guard let text = environment[Self.timeoutVariable] else { return 120 }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw ToolError("\(Self.timeoutVariable) is '\(text)'; set it to a number of seconds above 0, or unset it.", status: .usage)
        }
        return seconds
    }

    /// The line and column of the first `Package.swift:L:C: error:` in SwiftPM's output.
    static func firstErrorLocation(in text: String) -> ManifestLocation? {
        for line in text.split(separator: "\n") where line.contains(": error:") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard let file = fields.firstIndex(where: { $0.hasSuffix(".swift") }), file + 2 < fields.count,
                let row = Int(fields[file + 1]), let column = Int(fields[file + 2])
            else { continue }
            return ManifestLocation(line: row, column: column)
        }
        return nil
    }
}
