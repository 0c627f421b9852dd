import Foundation

/// The public API of one version of a component, as the toolchain's `swift-api-digester` dumps it: one
/// JSON document per library module, built from a source folder.
struct APIDump: Sendable {
    /// Each library module's dump, by module name.
    var modules: [String: Data]
}

/// Builds a package's library modules and dumps their public API with the toolchain's `swift-api-digester`
/// (`swift package diagnose-api-breaking-changes` cannot: it clones the package's folder as a repository,
/// and a component is no repository root). Dumps of a git tree are kept by the tree's id, so a version
/// already dumped costs nothing.
struct APIDigester {
    /// The workspace root: builds go under `.build/componentctl/api`.
    let root: URL
    /// Where build logs go.
    var logs: URL { root.appendingPathComponent(".build/componentctl-logs") }
    private var cache: URL { root.appendingPathComponent(".build/componentctl/api-dumps") }

    /// The library modules of `manifest` whose API counts: the targets its library products expose, test
    /// support aside (fakes for tests and demos).
    static func publicModules(of manifest: PackageManifest) -> [String] {
        let exposed = Set(manifest.products.filter { !$0.isExecutable && !$0.isPlugin }.flatMap(\.targets))
        return manifest.targets.filter { $0.kind == .regular && exposed.contains($0.name) && !LayerChecker.isTestSupport($0.name) }.map(\.name).sorted()
    }

    /// The dump of the package in `folder` (its modules `modules`), built in a scratch folder of
    /// `component`; kept under `key` (a git tree id) when given. Throws naming the build log on a failed build.
    func dump(package folder: URL, modules: [String], component: String, label: String, key: String?) throws -> APIDump {
        if let key, let cached = cached(key, modules: modules) { return cached }
        let swift = URL(fileURLWithPath: BuildPlanner.swiftExecutable(environment: ProcessInfo.processInfo.environment))
        let scratch = root.appendingPathComponent(".build/componentctl/api/\(component)")
        var log = ""
        for module in modules {
            let build = try ProcessRunner.run(swift, ["build", "--package-path", folder.path, "--scratch-path", scratch.path, "--target", module])
            log += build.text + build.errorText
            guard build.status == 0 else {
                let safe = String(label.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" })
                let file = logs.appendingPathComponent("api-diff-\(component)-\(safe).log")
                try? FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
                try? AtomicFile.write(Data(log.utf8), to: file)
                let tail = log.split(separator: "\n").suffix(12).joined(separator: "\n")
                throw ToolError(
                    "Building \(module) of \(component) (\(label)) failed, so its API cannot be read; the build log is "
                        + "\(file.path.replacingOccurrences(of: root.path + "/", with: "")):\n\(tail)", status: .buildFailed)
            }
        }
        let digester = try Self.digester(swift: swift)
        let triple = try Self.targetTriple(swift: swift)
        var dumped: [String: Data] = [:]
        for module in modules {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: output) }
            let run = try ProcessRunner.run(
                digester,
                [
                    "-dump-sdk", "-module", module, "-I", scratch.appendingPathComponent("debug/Modules").path, "-o", output.path, "-target", triple,
                    "-avoid-location", "-avoid-tool-args",
                ])
            guard run.status == 0, let data = FileManager.default.contents(atPath: output.path) else {
                throw ToolError("swift-api-digester could not dump the API of \(module): \(run.errorText.prefix(400))", status: .environment)
            }
            dumped[module] = data
        }
        if let key { keep(dumped, key: key) }
        return APIDump(modules: dumped)
    }

    /// The breaking changes from `old` to `new` (the digester's words, one a line) and how many public
    /// declarations `new` adds.
    func compare(_ old: APIDump, _ new: APIDump) throws -> (breaking: [String], added: Int) {
        let swift = URL(fileURLWithPath: BuildPlanner.swiftExecutable(environment: ProcessInfo.processInfo.environment))
        let digester = try Self.digester(swift: swift)
        var breaking: [String] = []
        var added = 0
        for (module, oldData) in old.modules.sorted(by: { $0.key < $1.key }) {
            guard let newData = new.modules[module] else {
                breaking.append("Module \(module) has been removed")
                continue
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("api-diff-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let (oldFile, newFile) = (folder.appendingPathComponent("old.json"), folder.appendingPathComponent("new.json"))
            try oldData.write(to: oldFile)
            try newData.write(to: newFile)
            let run = try ProcessRunner.run(digester, ["-diagnose-sdk", "-input-paths", oldFile.path, "-input-paths", newFile.path])
            breaking += Self.changes(in: run.text + run.errorText)
            added += Self.usrs(in: newData).subtracting(Self.usrs(in: oldData)).count
        }
        return (breaking, added)
    }

    /// The change lines of a `-diagnose-sdk` report (section headers and noise left out).
    static func changes(in report: String) -> [String] {
        report.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !line.hasPrefix("/*") && !line.hasPrefix("Failed to load module")
        }
    }

    /// The unique symbol names (USRs) a dump declares.
    static func usrs(in dump: Data) -> Set<String> {
        var found = Set<String>()
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let usr = object["usr"] as? String { found.insert(usr) }
                for child in object.values { walk(child) }
            } else if let array = value as? [Any] {
                for child in array { walk(child) }
            }
        }
        if let object = try? JSONSerialization.jsonObject(with: dump) { walk(object) }
        return found
    }

    private func cached(_ key: String, modules: [String]) -> APIDump? {
        var dumped: [String: Data] = [:]
        for module in modules {
            guard let data = FileManager.default.contents(atPath: cache.appendingPathComponent("\(key)-\(module).json").path) else { return nil }
            dumped[module] = data
        }
        return APIDump(modules: dumped)
    }

    private func keep(_ dump: [String: Data], key: String) {
        // A cache: a failure to keep it only costs a build next time.
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        for (module, data) in dump { try? AtomicFile.write(data, to: cache.appendingPathComponent("\(key)-\(module).json")) }
    }

    /// `swift-api-digester` beside the toolchain's `swift`.
    static func digester(swift: URL) throws -> URL {
        let resolved = swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("swift-api-digester")
        guard FileManager.default.isExecutableFile(atPath: resolved.path) else {
            throw ToolError(
                "The toolchain has no swift-api-digester beside \(swift.path); api-diff needs a full Swift toolchain (swift.org's ships it).",
                status: .environment)
        }
        return resolved
    }

    /// The target triple `swift` builds for.
    static func targetTriple(swift: URL) throws -> String {
        let info = try ProcessRunner.run(swift, ["-print-target-info"])
        struct Info: Decodable {
            struct Target: Decodable { var triple: String }
            var target: Target
        }
        guard let triple = (try? JSONDecoder().decode(Info.self, from: info.standardOutput))?.target.triple else {
            throw ToolError("'swift -print-target-info' says no target triple.", status: .environment)
        }
        return triple
    }
}
