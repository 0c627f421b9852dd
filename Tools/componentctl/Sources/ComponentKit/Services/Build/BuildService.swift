public import Foundation
import Synchronization

/// `componentctl build` and `componentctl test`: each component from its own package, or the integrated App.
public struct BuildService {
    /// Build or test.
    public enum Action: String, Sendable {
        case build, test
    }

    /// One unit of work: a component's own package, or the integrated App.
    public struct Job: Sendable, Equatable {
        /// What the summary calls it.
        public var name: String
        /// The package folder, relative to the workspace root.
        public var path: String
        /// The arguments after `swift`.
        public var arguments: [String]
        /// Variables added to the environment of `swift`.
        public var environment: [String: String] = [:]
        /// Its key (``ComponentKeys``), when its result may be taken from the results cache.
        public var key: String?
        /// Whether that key includes uncommitted changes.
        public var keyIsUncommitted = false
        /// Whether it builds in the shared scratch folder (standalone jobs, unless each package keeps its own).
        public var sharesScratch = false

        /// Whether it runs tests (`swift test`), not only a build.
        var runsTests: Bool { arguments.first == Action.test.rawValue }

        /// What its passed result is recorded as: `test standalone` or `test app`.
        var cacheAction: String { (arguments.first ?? "") + (path == "." ? " app" : " standalone") }

        /// A job running `swift arguments` for the package at `path`.
        public init(name: String, path: String, arguments: [String], environment: [String: String] = [:]) {
            self.name = name
            self.path = path
            self.arguments = arguments
            self.environment = environment
        }
    }

    /// How one job ended.
    public struct Outcome: Sendable, Equatable {
        public var job: Job
        public var succeeded: Bool
        public var seconds: Double
        public var log: String
        /// The record of the run that passed with the same key, when the job was skipped for it.
        public var cached: PassedResult?
    }

    /// The workspace root.
    public var root: URL
    /// Build or test.
    public var action: Action
    /// `debug` or `release`.
    public var configuration: String
    /// One scratch folder shared by every standalone package (``SharedScratch``), or each package's own `.build`.
    public var sharedScratch: Bool
    /// The `swift` executable (an override makes tests fast).
    public var swift: String
    /// Also copy each job's output to standard output (CI logs), not only to its log file.
    public var verbose: Bool
    /// Extra arguments of every `swift build` and `swift test` (`COMPONENTCTL_SWIFT_FLAGS`).
    public var flags: [String]
    /// Where passed tests are remembered; a job whose key passed is skipped (tests only).
    public var cache: ResultsCache?

    /// Creates a service.
    public init(
        root: URL, action: Action, configuration: String, sharedScratch: Bool, swift: String, verbose: Bool = false, flags: [String] = [],
        cache: ResultsCache? = nil
    ) {
        self.root = root
        self.action = action
        self.configuration = configuration
        self.sharedScratch = sharedScratch
        self.swift = swift
        self.verbose = verbose
        self.flags = flags
        self.cache = cache
    }

    /// The job that builds or tests `component` alone, demo executable included; a component without test targets is
    /// built, as `swift test` would refuse it ("no tests found").
    public func standaloneJob(_ component: Component) -> Job {
        let folder = root.appendingPathComponent(component.path)
        let hasTests =
            (try? ManifestLoader(environment: ProcessInfo.processInfo.environment).load(packageIn: folder))?.targets.contains { $0.kind == .test } ?? true
        let verb = action == .test && !hasTests ? Action.build.rawValue : action.rawValue
        var arguments = [verb, "--package-path", component.path, "-c", configuration] + flags
        if sharedScratch { arguments += ["--scratch-path", SharedScratch.path] }
        // Without XCTest tests, XCTest would only print "Executed 0 tests" after Swift Testing's run.
        if verb == Action.test.rawValue, !importsXCTest(testsOf: component) { arguments.append("--disable-xctest") }
        var job = Job(name: component.name, path: component.path, arguments: arguments)
        job.sharesScratch = sharedScratch
        return job
    }

    /// Whether a Swift file under the component's `Tests/` imports XCTest.
    private func importsXCTest(testsOf component: Component) -> Bool {
        let tests = root.appendingPathComponent(component.path).appendingPathComponent("Tests")
        return SwiftFiles.under(tests, skipping: []).contains { path in
            guard let data = FileManager.default.contents(atPath: tests.appendingPathComponent(path).path) else { return false }
            return data.withUnsafeBytes { ImportScanner.scan($0.bindMemory(to: UInt8.self)).imports }.contains { $0.module == "XCTest" }
        }
    }

    /// The job that builds every app of the integrated workspace, or runs the root package's tests.
    public func integratedJob() -> Job {
        Job(name: "app (integrated)", path: ".", arguments: [action.rawValue, "-c", configuration] + flags)
    }

    /// The job that builds one app, or runs the root package's tests against it: COMPONENTCTL_APP and
    /// COMPONENTCTL_APP_PRODUCT tell the tests which app they drive.
    public func appJob(_ app: AppDeclaration) -> Job {
        guard action == .test else {
            return Job(name: "app \(app.name)", path: ".", arguments: ["build", "--product", app.product, "-c", configuration] + flags)
        }
        return Job(
            name: "app \(app.name)", path: ".", arguments: ["test", "-c", configuration] + flags,
            environment: ["COMPONENTCTL_APP": app.name, "COMPONENTCTL_APP_PRODUCT": app.product])
    }

    /// Runs `jobs` one after another (builds on two cores do not gain from running side by side),
    /// reporting progress, and returns the summary with exit code 4 when any failed.
    public func run(_ jobs: [Job], progress: BuildProgress) throws -> CommandResult {
        let logs = root.appendingPathComponent(".build/componentctl-logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let scratch = SharedScratch(root: root, configuration: configuration)
        let lock = try jobs.contains(where: \.sharesScratch) ? scratch.lock(waiting: progress.note) : nil
        defer { withExtendedLifetime(lock) {} }
        var plans = PlanMemory(scratch: scratch, flags: flags)
        let loader = ManifestLoader(environment: ProcessInfo.processInfo.environment)
        var outcomes: [Outcome] = []
        for (index, job) in jobs.enumerated() {
            let log = logs.appendingPathComponent("\(job.name.replacingOccurrences(of: " ", with: "-"))-\(action.rawValue).log")
            let relativeLog = String(log.path.dropFirst(root.path.count + 1))
            let cache = action == .test ? cache : nil
            if let key = job.key, let cache, let passed = cache.passed(key, action: job.cacheAction) {
                let outcome = Outcome(job: job, succeeded: true, seconds: 0, log: relativeLog, cached: passed)
                progress.finished(outcome, number: index + 1, of: jobs.count)
                outcomes.append(outcome)
                continue
            }
            progress.started(job, step: action.rawValue, number: index + 1, of: jobs.count)
            let start = Date()
            let succeeded = try execute(job, log: log, scratch: scratch, plans: &plans, loader: loader)
            let outcome = Outcome(job: job, succeeded: succeeded, seconds: Date().timeIntervalSince(start), log: relativeLog)
            // Only a run that ended passing is remembered; a failed or interrupted one leaves nothing.
            if succeeded, let key = job.key, let cache {
                cache.record(PassedResult(job: job.name, action: job.cacheAction, key: key, seconds: outcome.seconds))
            }
            progress.finished(outcome, number: index + 1, of: jobs.count)
            outcomes.append(outcome)
        }
        return Self.summary(outcomes, action: action)
    }

    private func execute(_ job: Job, log: URL, scratch: SharedScratch, plans: inout PlanMemory, loader: ManifestLoader) throws -> Bool {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw ToolError("Cannot create the log \(log.path).", status: .environment)
        }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        guard job.sharesScratch else { return try launch(job.arguments, environment: job.environment, name: job.name, log: handle) }
        guard var plan = try firstPlan(of: job, scratch: scratch, plans: plans, loader: loader, log: handle) else { return false }
        // The build writes its own plan: a build that saw other modules than that plan holds is done again with it.
        for _ in 1...Self.buildsPerJob {
            scratch.removePlans()
            let existing = scratch.builtModules(in: plan)
            scratch.discardModulesCompiledWithMoreInView(plan, built: existing)
            let succeeded: Bool
            do {
                defer { scratch.restoreModules(into: plan.buildFolder) }
                try scratch.hideModules(outside: plan)
                succeeded = try launch(job.arguments, environment: job.environment, name: job.name, log: handle)
            }
            try scratch.keepCheckouts()
            // A build that stopped before it planned (a manifest that fails) saw no module.
            guard succeeded || scratch.hasPlan else { return false }
            let written = try scratch.readPlan(of: job.path)
            plans.remember(written)
            let actual = written.plan(includingTests: job.runsTests)
            // The modules in view were right when none was too many, and none missing that existed before the build.
            let missing = actual.modules.subtracting(plan.modules).intersection(existing), extra = plan.modules.subtracting(actual.modules)
            let otherFolder = actual.buildFolder.path != plan.buildFolder.path
            if !otherFolder, extra.isEmpty, missing.isEmpty { return succeeded }
            let differences =
                [
                    ("not in view", missing.sorted().joined(separator: ", ")), ("in view", extra.sorted().joined(separator: ", ")),
                    ("built in", otherFolder ? actual.buildFolder.path : ""),
                ].filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }
            handle.write(Data("componentctl: the build's modules differ from its plan (\(differences.joined(separator: "; "))); building again.\n".utf8))
            plan = actual
        }
        throw ToolError(
            "SwiftPM planned other modules for \(job.path) on each of \(Self.buildsPerJob) builds. Build it with --scratch package (a folder of its own).",
            status: .environment)
    }

    /// How many builds a job may take to see exactly the modules SwiftPM plans: one when its plan was predicted right.
    private static let buildsPerJob = 3

    /// The plan a job's first build follows: predicted, else SwiftPM's (nil when SwiftPM cannot plan: its errors are in
    /// the log). Either way the checkouts it needs are in place, so that none is cloned again during the build.
    private func firstPlan(of job: Job, scratch: SharedScratch, plans: PlanMemory, loader: ManifestLoader, log: FileHandle) throws -> SharedScratch.Plan? {
        if let predicted = plans.predict(job.path, in: root, includingTests: job.runsTests, loader: loader) {
            // SwiftPM drops the checkouts one package does not use: cloned again for the next, all their files would
            // be new and compiled again. Resolving first lets the clone be replaced by the copy kept of its revision.
            let needed = PlanMemory.remotePackages(of: root.appendingPathComponent(job.path), loader: loader)
            if let needed, needed.isSubset(of: scratch.checkedOutPackages()) { return predicted }
            // `swift package` refuses some options of `swift build` (`--disable-xctest`): then the planning call resolves.
            let resolve = scratch.resolveArguments(packagePath: job.path, flags: flags)
            if try launch(resolve, environment: job.environment, name: job.name, log: log, dropOutput: true, dropErrors: true) {
                try scratch.keepCheckouts()
                return predicted
            }
        }
        // Its standard output is the job graph, of no use to a reader; its errors (a manifest that fails) are.
        let planning = scratch.planArguments(packagePath: job.path, flags: flags)
        scratch.removePlans()
        guard try launch(planning, environment: job.environment, name: job.name, log: log, dropOutput: true) else { return nil }
        try scratch.keepCheckouts()
        return try scratch.readPlan(of: job.path).plan(includingTests: job.runsTests)
    }

    /// Runs `swift arguments` with its output in `log` (and on standard output when verbose; `dropOutput` drops
    /// its standard output, `dropErrors` its standard error), and says whether it exited 0.
    private func launch(
        _ arguments: [String], environment: [String: String], name: String, log handle: FileHandle, dropOutput: Bool = false, dropErrors: Bool = false
    ) throws -> Bool {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
        handle.write(Data("$ \(variables)swift \(arguments.joined(separator: " "))\n".utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swift)
        process.arguments = arguments
        process.currentDirectoryURL = root
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        let pipe = Pipe()
        process.standardOutput = dropOutput ? FileHandle.nullDevice : verbose ? pipe : handle
        process.standardError = dropErrors ? FileHandle.nullDevice : verbose ? pipe : handle
        process.standardInput = FileHandle.nullDevice
        let stop: StopForwarding.Child
        do {
            stop = try StopForwarding.start(process)
        } catch {
            throw ToolError("Cannot run '\(swift)': \(ToolError.describe(error)) Is Swift installed and on the PATH?", status: .environment)
        }
        // A pipe no child writes to would never end.
        if verbose, !(dropOutput && dropErrors) {
            while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                handle.write(data)
                FileHandle.standardOutput.write(data)
            }
        }
        process.waitUntilExit()
        if let signal = stop.finish() {
            throw StopForwarding.stopped(by: signal, while: "running \(name)")
        }
        return process.terminationStatus == 0
    }

    static func summary(_ outcomes: [Outcome], action: Action) -> CommandResult {
        let keyed = outcomes.contains { $0.job.key != nil }
        let rows =
            [["COMPONENT", "RESULT", "TIME"] + (keyed ? ["KEY"] : [])]
            + outcomes.map { outcome in
                let result = outcome.cached != nil ? "cached" : outcome.succeeded ? "ok" : "FAILED"
                let time = outcome.cached.map { String(format: "(%.1fs)", $0.seconds) } ?? String(format: "%.1fs", outcome.seconds)
                return [outcome.job.name, result, time] + (keyed ? [outcome.job.key.map { String($0.prefix(12)) } ?? "-"] : [])
            }
        var text = TextTable.render(rows)
        let failed = outcomes.filter { !$0.succeeded }
        let cached = outcomes.filter { $0.cached != nil }.count
        let passed = "\(outcomes.count - failed.count) passed" + (cached > 0 ? " (\(cached) cached)" : "")
        guard !failed.isEmpty else {
            return CommandResult(output: text + "\(action.rawValue): \(passed), 0 failed\n")
        }
        text += failed.map { "\($0.job.name): \(action.rawValue) failed; see \($0.log)\n" }.joined()
        text += "\(action.rawValue): \(passed), \(failed.count) failed\n"
        return CommandResult(output: text, status: .buildFailed)
    }
}

/// Reports build progress: a live line on a terminal, plain lines in logs and CI.
public final class BuildProgress: Sendable {
    private struct Current: Sendable {
        var text: String
        var start: Date
    }

    private let live: Bool
    private let write: @Sendable (String) -> Void
    private let current = Mutex<Current?>(nil)
    private let stopped = Mutex(false)

    /// Progress written with `write`; `live` redraws one line every half second (for a terminal).
    public init(live: Bool, write: @escaping @Sendable (String) -> Void) {
        self.live = live
        self.write = write
        guard live else { return }
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                redraw()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        thread.start()
    }

    /// Progress for standard output: live when it is a terminal.
    public static func standardOutput() -> BuildProgress {
        BuildProgress(live: isatty(STDOUT_FILENO) == 1) { FileHandle.standardOutput.write(Data($0.utf8)) }
    }

    /// A line of its own (below a live line, which is redrawn).
    public func note(_ text: String) {
        write(live ? "\r\u{1B}[2K" + text : text)
    }

    func started(_ job: BuildService.Job, step: String, number: Int, of total: Int) {
        let text = "[\(number)/\(total)] \(job.name)  \(step)"
        current.withLock { $0 = Current(text: text, start: Date()) }
        if live { redraw() } else { write(text + " ...\n") }
    }

    func finished(_ outcome: BuildService.Outcome, number: Int, of total: Int) {
        current.withLock { $0 = nil }
        let line =
            if let cached = outcome.cached {
                "[\(number)/\(total)] \(outcome.job.name)  cached  key \(cached.key.prefix(12)) passed \(cached.finished) in \(String(format: "%.1fs", cached.seconds))"
            } else {
                "[\(number)/\(total)] \(outcome.job.name)  \(outcome.succeeded ? "ok" : "FAILED")  \(String(format: "%.1fs", outcome.seconds))"
            }
        write(live ? "\r\u{1B}[2K" + line + "\n" : line + "\n")
    }

    /// Stops redrawing.
    public func stop() {
        stopped.withLock { $0 = true }
    }

    private func redraw() {
        guard let current = current.withLock({ $0 }) else { return }
        let elapsed = Int(Date().timeIntervalSince(current.start))
        write("\r\u{1B}[2K\(current.text)  " + String(format: "%02d:%02d", elapsed / 60, elapsed % 60))
    }
}
