public import Foundation

/// `componentctl ci local`: runs a GitHub Actions workflow on this machine as the engine would, so the
/// commands in the workflow are the ones that are tested. Each job (each matrix entry) starts in an empty
/// folder that its `actions/checkout` step fills with a fresh clone of HEAD; `run` steps go through
/// `bash -eo pipefail` with `$GITHUB_OUTPUT`; a matrix comes from the JSON a job wrote there. The actions
/// are emulated: checkout (a clone), cache (a folder a key), upload and download of artifacts (a folder a
/// name; file modes are not kept, as on GitHub). The `container:` is this machine; any other action, or an
/// expression the runner cannot evaluate, stops the run with what it is.
public struct LocalWorkflowRunner {
    /// How the run went, job by job.
    public struct JobResult: Sendable {
        public var name: String
        public var result: String
        public var seconds: Double
        public var log: String?
    }

    let repository: URL
    let commit: String
    let base: String?
    let folder: URL
    /// Where `actions/cache` keeps what it saves; kept between runs as GitHub keeps a repository's caches.
    let actionsCache: URL
    let say: (String) -> Void
    private var outputs: [String: [String: String]] = [:]
    private var results: [String: String] = [:]

    /// A runner of the workflow on `context`'s HEAD; `base` plays the pull request's base commit (none: a push
    /// with no previous commit, so everything is affected). Its clones and logs go into `folder`, what
    /// `actions/cache` saves into `actionsCache` (default: inside `folder`, so nothing outlives the run).
    public init(_ context: VersionedWorkspace, base: String?, folder: URL, actionsCache: URL? = nil, say: @escaping (String) -> Void) throws {
        self.actionsCache = actionsCache ?? folder.appendingPathComponent("actions-cache")
        repository = context.repository.workdir
        commit = try context.repository.headCommit().hex
        self.base = try base.map { try AffectedService.revision($0, option: "--base", in: context.repository).hex }
        self.folder = folder
        self.say = say
    }

    /// Runs the workflow at `given` (relative to the repository, or an absolute path inside it); its jobs and what became of each.
    public mutating func run(workflow given: String) throws -> [JobResult] {
        var path = given
        if given.hasPrefix("/") {
            let base = repository.standardizedFileURL.path + "/"
            let full = URL(fileURLWithPath: given).standardizedFileURL.path
            guard full.hasPrefix(base) else {
                throw ToolError(
                    "The workflow \(given) is outside the repository: its jobs run in clones of the repository, so it must be one of its "
                        + "files. Give its path relative to the repository.", status: .usage)
            }
            path = String(full.dropFirst(base.count))
        }
        let url = repository.appendingPathComponent(path)
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            throw ToolError("There is no workflow at \(path): write it with 'componentctl ci github'.", status: .usage)
        }
        guard let document = try YAMLLoader.load(Array(bytes), path: path), let jobs = document.mapping?["jobs"]?.orderedMapping else {
            throw ToolError("\(path) has no jobs.", status: .usage)
        }
        var done: [JobResult] = []
        var pending = jobs
        while !pending.isEmpty {
            guard let index = pending.firstIndex(where: { job in Self.needs(job.value).allSatisfy { results[$0] != nil } }) else {
                throw ToolError(
                    "The jobs \(pending.map(\.key).joined(separator: ", ")) need jobs that never run (a cycle, or a misspelt name).", status: .usage)
            }
            let (name, job) = pending.remove(at: index)
            done += try runJob(name, job)
        }
        return done
    }

    private static func needs(_ job: YAMLNode) -> [String] {
        switch job.mapping?["needs"] {
        case .scalar(let scalar)?: [scalar.value]
        case .sequence(let items, _, _)?: items.compactMap(\.scalarValue)
        default: []
        }
    }

    private func expression(_ job: YAMLNode, matrix: WorkflowValue = .null, steps: [String: WorkflowValue] = [:], workspace: URL? = nil) -> WorkflowExpression {
        var needs: [String: WorkflowValue] = [:]
        for name in Self.needs(job) {
            needs[name] = .object(["result": .string(results[name] ?? "skipped"), "outputs": .object((outputs[name] ?? [:]).mapValues { .string($0) })])
        }
        let event: WorkflowValue =
            base.map { .object(["pull_request": .object(["base": .object(["sha": .string($0)])])]) } ?? .object(["before": .string("")])
        let github: WorkflowValue = .object([
            "sha": .string(commit), "ref": .string("refs/heads/local"), "event_name": .string(base == nil ? "push" : "pull_request"),
            "event": event, "workspace": .string(workspace?.path ?? ""), "run_id": .string("local"),
        ])
        let failed = Self.needs(job).contains { results[$0] == "failure" }
        return WorkflowExpression(
            contexts: [
                "github": github, "matrix": matrix, "needs": .object(needs), "steps": .object(steps),
                "runner": .object(["os": .string("Linux"), "temp": .string(folder.appendingPathComponent("tmp").path)]), "env": .object([:]),
            ], needsFailed: failed)
    }

    private mutating func runJob(_ name: String, _ job: YAMLNode) throws -> [JobResult] {
        let map = job.mapping ?? [:]
        let failedNeeds = Self.needs(job).filter { results[$0] == "failure" }
        let condition =
            try map["if"]?.scalarValue.map { try expression(job).condition($0) }
            ?? (failedNeeds.isEmpty && Self.needs(job).allSatisfy { results[$0] == "success" })
        guard condition else {
            results[name] = "skipped"
            say("== \(name): skipped (its condition is false)\n")
            return [JobResult(name: name, result: "skipped", seconds: 0, log: nil)]
        }
        var entries: [WorkflowValue] = [.null]
        if let matrix = map["strategy"]?.mapping?["matrix"] {
            entries = try matrixEntries(matrix, job: job)
            say("== \(name): matrix of \(entries.count) from \(entries.map(\.text).joined(separator: ", "))\n")
        }
        var jobResults: [JobResult] = []
        for entry in entries {
            let label = entry == .null ? name : "\(name) (\(entry["name"].text.isEmpty ? entry.text : entry["name"].text))"
            jobResults.append(try runEntry(name, label: label, job: job, matrix: entry))
        }
        results[name] = jobResults.allSatisfy { $0.result == "success" } ? "success" : "failure"
        return jobResults
    }

    private func matrixEntries(_ node: YAMLNode, job: YAMLNode) throws -> [WorkflowValue] {
        let value: WorkflowValue
        if let text = node.scalarValue {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            value = try expression(job).evaluate(String(trimmed.dropFirst(3).dropLast(2)))
        } else {
            value = WorkflowValue(json: node.jsonObject)
        }
        guard case .object(let fields) = value else { throw ToolError("A matrix must be an object; got \(value.text).", status: .usage) }
        let dimensions = fields.filter { $0.key != "include" && $0.key != "exclude" }.sorted { $0.key < $1.key }
        var entries: [WorkflowValue] = dimensions.isEmpty ? [] : [.object([:])]
        for (key, values) in dimensions {
            guard case .array(let list) = values else { throw ToolError("The matrix's '\(key)' must be a list; got \(values.text).", status: .usage) }
            entries = entries.flatMap { entry in list.map { item in Self.merged(entry, [key: item]) } }
        }
        if case .array(let includes) = fields["include"] ?? .null {
            for case .object(let include) in includes { entries.append(Self.merged(.object([:]), include)) }
        }
        return entries
    }

    private static func merged(_ entry: WorkflowValue, _ fields: [String: WorkflowValue]) -> WorkflowValue {
        guard case .object(var values) = entry else { return .object(fields) }
        values.merge(fields) { _, new in new }
        return .object(values)
    }

    private mutating func runEntry(_ name: String, label: String, job: YAMLNode, matrix: WorkflowValue) throws -> JobResult {
        let slug = label.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { $0.append($1) }
        let workspace = folder.appendingPathComponent("jobs/\(slug)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("logs/\(slug).log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        say("== \(label)\n")
        let start = Date()
        var stepOutputs: [String: WorkflowValue] = [:]
        var failed = false
        var cachesToSave: [(key: String, path: URL)] = []
        for (index, step) in (job.mapping?["steps"]?.sequence ?? []).enumerated() {
            let map = step.mapping ?? [:]
            let context = expression(job, matrix: matrix, steps: stepOutputs, workspace: workspace)
            let title = try map["name"]?.scalarValue.map(context.substitute) ?? map["uses"]?.scalarValue ?? "step \(index + 1)"
            if let condition = map["if"]?.scalarValue, try !context.condition(condition) {
                say("   - \(title): skipped\n")
                continue
            }
            guard !failed else { continue }
            var with: [String: String] = [:]
            for (key, value) in map["with"]?.orderedMapping ?? [] { with[key] = try context.substitute(value.scalarValue ?? "") }
            var ok = true
            var produced: [String: String] = [:]
            if let uses = map["uses"]?.scalarValue {
                (ok, produced) = try action(uses, with: with, workspace: workspace, log: handle, cachesToSave: &cachesToSave)
            } else if let script = map["run"]?.scalarValue {
                var environment: [String: String] = [:]
                for scope in [job.mapping?["env"], map["env"]] {
                    for (key, value) in scope?.orderedMapping ?? [] { environment[key] = try context.substitute(value.scalarValue ?? "") }
                }
                (ok, produced) = try shell(try context.substitute(script), environment: environment, workspace: workspace, log: handle)
            }
            if let id = map["id"]?.scalarValue { stepOutputs[id] = .object(["outputs": .object(produced.mapValues { .string($0) })]) }
            say("   - \(title): \(ok ? "ok" : "FAILED")\n")
            failed = !ok
        }
        if !failed {
            for cache in cachesToSave where FileStatus.exists(cache.path) {
                let stored = cacheFolder(cache.key)
                try? FileManager.default.removeItem(at: stored)
                try FileManager.default.createDirectory(at: stored.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: cache.path, to: stored)
                try Data(cache.key.utf8).write(to: stored.appendingPathExtension("key"))
            }
            let context = expression(job, matrix: matrix, steps: stepOutputs, workspace: workspace)
            for (key, value) in job.mapping?["outputs"]?.orderedMapping ?? [] {
                outputs[name, default: [:]][key] = try context.substitute(value.scalarValue ?? "")
            }
        }
        let relativeLog = String(log.path.dropFirst(folder.path.count + 1))
        return JobResult(name: label, result: failed ? "failure" : "success", seconds: Date().timeIntervalSince(start), log: relativeLog)
    }

    private func cacheFolder(_ key: String) -> URL {
        actionsCache.appendingPathComponent(ComponentKeys.digest([key]))
    }

    /// The cache saved under `key`, else, as GitHub does, the newest whose key starts with the first of `prefixes`
    /// that any key starts with.
    private func restorable(_ key: String, prefixes: [String]) -> URL? {
        if FileStatus.exists(cacheFolder(key)) { return cacheFolder(key) }
        let saved = ((try? FileManager.default.contentsOfDirectory(atPath: actionsCache.path)) ?? []).compactMap {
            name -> (key: String, folder: URL, date: Date)? in
            let record = actionsCache.appendingPathComponent(name + ".key")
            guard name.hasSuffix(".key") == false, let key = try? String(contentsOf: record, encoding: .utf8),
                let date = (try? FileManager.default.attributesOfItem(atPath: record.path))?[.modificationDate] as? Date
            else { return nil }
            return (key, actionsCache.appendingPathComponent(name), date)
        }
        for prefix in prefixes {
            if let newest = saved.filter({ $0.key.hasPrefix(prefix) }).max(by: { $0.date < $1.date }) { return newest.folder }
        }
        return nil
    }

    private func action(
        _ uses: String, with: [String: String], workspace: URL, log: FileHandle, cachesToSave: inout [(key: String, path: URL)]
    ) throws -> (Bool, [String: String]) {
        let name = uses.split(separator: "@").first.map(String.init) ?? uses
        switch name {
        case "actions/checkout":
            let run = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/git"), ["clone", "-q", repository.path, workspace.path])
            guard run.status == 0 else { return (false, [:]) }
            let checkout = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/git"), ["checkout", "-q", "--detach", commit], in: workspace)
            return (checkout.status == 0, [:])
        case "actions/cache":
            guard let key = with["key"], let path = with["path"] else { throw ToolError("actions/cache needs 'key' and 'path'.", status: .usage) }
            let target = workspace.appendingPathComponent(path)
            let restoreKeys = (with["restore-keys"] ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let stored = restorable(key, prefixes: restoreKeys) {
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: stored, to: target)
                let savedKey = (try? String(contentsOf: stored.appendingPathExtension("key"), encoding: .utf8)) ?? key
                log.write(Data("Restored \(path) from the cache saved as '\(savedKey)'.\n".utf8))
                let hit = stored == cacheFolder(key)
                // GitHub saves a job's cache only when its key missed: a cache restored by prefix is saved anew.
                if !hit { cachesToSave.append((key, target)) }
                return (true, ["cache-hit": hit ? "true" : "false"])
            }
            cachesToSave.append((key, target))
            return (true, ["cache-hit": "false"])
        case "actions/upload-artifact":
            guard let artifact = with["name"], let path = with["path"] else { throw ToolError("upload-artifact needs 'name' and 'path'.", status: .usage) }
            let source = workspace.appendingPathComponent(path)
            let stored = folder.appendingPathComponent("artifacts/\(artifact)")
            try FileManager.default.createDirectory(at: stored, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: stored.appendingPathComponent(source.lastPathComponent))
            return (true, [:])
        case "actions/download-artifact":
            guard let artifact = with["name"] else { throw ToolError("download-artifact needs 'name'.", status: .usage) }
            let stored = folder.appendingPathComponent("artifacts/\(artifact)")
            let target = workspace.appendingPathComponent(with["path"] ?? ".")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: stored.path) {
                let destination = target.appendingPathComponent(file)
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.copyItem(at: stored.appendingPathComponent(file), to: destination)
                // Artifacts are zip files on GitHub: no file keeps its executable bit.
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
            }
            return (true, [:])
        default:
            throw ToolError(
                "The local runner does not know the action '\(uses)': it emulates checkout, cache, upload-artifact and download-artifact.", status: .usage)
        }
    }

    private func shell(_ script: String, environment: [String: String], workspace: URL, log: FileHandle) throws -> (Bool, [String: String]) {
        let scripts = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let file = scripts.appendingPathComponent("step-\(UUID().uuidString).sh")
        let output = scripts.appendingPathComponent("output-\(UUID().uuidString)")
        try Data(script.utf8).write(to: file)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        log.write(Data("$ \(script.trimmingCharacters(in: .newlines))\n".utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--noprofile", "--norc", "-eo", "pipefail", file.path]
        process.currentDirectoryURL = workspace
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.merging([
            "GITHUB_OUTPUT": output.path, "GITHUB_WORKSPACE": workspace.path, "CI": "true", "RUNNER_TEMP": scripts.path,
        ]) { _, new in new }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let stop = try StopForwarding.start(process)
        process.waitUntilExit()
        if let signal = stop.finish() { throw StopForwarding.stopped(by: signal, while: "running a step of the workflow") }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (process.terminationStatus == 0, Self.outputs(text))
    }

    /// The table of `results`; exit 4 when a job failed (naming its log, kept or not).
    public static func summary(_ results: [JobResult], folder: URL, kept: Bool) -> CommandResult {
        var text = TextTable.render([["JOB", "RESULT", "TIME"]] + results.map { [$0.name, $0.result, String(format: "%.1fs", $0.seconds)] })
        let failed = results.filter { $0.result == "failure" }
        if kept { text += "Clones, caches and logs: \(folder.path)\n" }
        for job in failed {
            let log = job.log.map { folder.appendingPathComponent($0) }
            let tail = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) }?.split(separator: "\n").suffix(30).joined(separator: "\n") ?? ""
            text += "\(job.name) failed; the end of its log:\n\(tail)\n"
        }
        text +=
            "ci local: \(results.filter { $0.result == "success" }.count) jobs passed, \(failed.count) failed, "
            + "\(results.filter { $0.result == "skipped" }.count) skipped\n"
        return CommandResult(output: text, status: failed.isEmpty ? .ok : .buildFailed)
    }

    /// The `name=value` lines (and `name<<DELIMITER` blocks) a step wrote to `$GITHUB_OUTPUT`.
    static func outputs(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if let marker = line.range(of: "<<") {
                let name = String(line[..<marker.lowerBound]), delimiter = String(line[marker.upperBound...])
                var value: [Substring] = []
                while let next = lines.popFirst(), next != delimiter { value.append(next) }
                result[name] = value.joined(separator: "\n")
            } else if let equals = line.firstIndex(of: "=") {
                result[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        return result
    }
}

extension YAMLNode {
    var mapping: [String: YAMLNode]? {
        guard case .mapping(let entries, _, _) = self else { return nil }
        return Dictionary(entries.map { ($0.key.value, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    var orderedMapping: [(key: String, value: YAMLNode)]? {
        guard case .mapping(let entries, _, _) = self else { return nil }
        return entries.map { ($0.key.value, $0.value) }
    }

    var sequence: [YAMLNode]? {
        guard case .sequence(let items, _, _) = self else { return nil }
        return items
    }

    var scalarValue: String? {
        guard case .scalar(let scalar) = self else { return nil }
        return scalar.value
    }

    /// The node as JSON values (scalars as strings, except true, false and numbers).
    var jsonObject: Any {
        switch self {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if scalar.value == "true" || scalar.value == "false" { return scalar.value == "true" }
                if let number = Double(scalar.value) { return number }
            }
            return scalar.value
        case .mapping(let entries, _, _): return Dictionary(entries.map { ($0.key.value, $0.value.jsonObject) }, uniquingKeysWith: { a, _ in a })
        case .sequence(let items, _, _): return items.map(\.jsonObject)
        }
    }
}
