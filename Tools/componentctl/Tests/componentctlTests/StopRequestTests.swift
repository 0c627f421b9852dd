import ComponentKit
import Foundation
import Testing
import TestSupport

/// Ctrl-C in a terminal (SIGINT to the foreground process group) and SIGTERM each end the command and every process
/// it started: a stand-in `swift` that waits shows what would otherwise run on.
@Suite struct StopRequestTests {
    /// A `swift` that answers `--version` and otherwise records its process id and waits as a long build would.
    private func standIn(_ scratch: Scratch) throws -> (swift: String, pidFile: URL) {
        let pidFile = scratch.root.deletingLastPathComponent().appendingPathComponent("stand-in.pid")
        let path = scratch.root.deletingLastPathComponent().appendingPathComponent("waiting-swift").path
        try Data(
            """
            #!/bin/sh
            case "$1" in --version) echo "Swift version 6.3.1 (stand-in)"; exit 0;; esac
            echo $$ > "\(pidFile.path).tmp" && mv "\(pidFile.path).tmp" "\(pidFile.path)"
            exec sleep 300

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return (path, pidFile)
    }

    /// Starts componentctl with `arguments`, waits until the stand-in runs, then sends `signal` as a terminal or a CI
    /// runner would; returns how componentctl ended, what it said and whether the stand-in still runs.
    private func stop(_ arguments: [String], in scratch: Scratch, with signal: Int32) throws -> (status: Int32, error: String, childRuns: Bool) {
        let (swift, pidFile) = try standIn(scratch)
        try? FileManager.default.removeItem(at: pidFile)
        let process = Process()
        process.executableURL = try ToolProcess.binary()
        process.arguments = ["--root", scratch.root.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["COMPONENTCTL_SWIFT": swift, "COMPONENTCTL_CACHE": "off"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        // Foundation starts it in a process group of its own: the foreground group of a terminal it would be.
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: pidFile.path), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let child = pid_t((try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(child > 0, "the stand-in started")
        kill(signal == SIGINT ? -process.processIdentifier : process.processIdentifier, signal)
        let patience = Date().addingTimeInterval(30)
        while process.isRunning, Date() < patience { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let childRuns = child > 0 && isRunning(child)
        if child > 0 { kill(child, SIGKILL) }
        return (process.terminationStatus, said, childRuns)
    }

    /// Whether `pid` is a live process (a zombie is not).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? false)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aStopEndsTheStandaloneTestAndTheCommandOfCached(signal: Int32) throws {
        let scratch = try Scratch.fixtureRepository()
        let tested = try stop(["test", "values", "--standalone"], in: scratch, with: signal)
        #expect(!tested.childRuns, "test --standalone left swift running")
        #expect(tested.status == 128 + signal)
        #expect(tested.error.contains("Stopped (signal \(signal)) while running values"), "\(tested.error)")

        let waiting = scratch.root.deletingLastPathComponent().appendingPathComponent("waiting-swift").path
        let cached = try stop(["cached", "slow", "--input", ".", "--", waiting, "run"], in: scratch, with: signal)
        #expect(!cached.childRuns, "cached left its command running")
        #expect(cached.status == 128 + signal)
        #expect(cached.error.contains("Stopped (signal \(signal)) while running slow"), "\(cached.error)")
    }

    @Test func aProcessOfTheGroupThatIgnoresTheInterruptIsEndedWithIt() throws {
        let scratch = try Scratch.fixtureRepository()
        let marker = scratch.root.deletingLastPathComponent().appendingPathComponent("stubborn.pid")
        let script = scratch.root.deletingLastPathComponent().appendingPathComponent("stubborn").path
        try Data(
            """
            #!/bin/sh
            sh -c 'trap "" INT TERM; exec sleep 300' &
            echo $! > "\(marker.path)"
            exec "$0-wait" run

            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        let (waiting, _) = try standIn(scratch)
        try FileManager.default.copyItem(atPath: waiting, toPath: script + "-wait")
        let stopped = try stop(["cached", "stubborn", "--input", ".", "--", script], in: scratch, with: SIGINT)
        #expect(!stopped.childRuns)
        let stubborn = pid_t((try? String(contentsOf: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(stubborn > 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!isRunning(stubborn), "the process that ignored the interrupt was left running")
        if stubborn > 0 { kill(stubborn, SIGKILL) }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aStopEndsTheBuildOfAPIDiffAndLeavesNoFolderBehind(signal: Int32) throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try ToolProcess.run(["--root", scratch.root.path, "release", "shelf-interface", "1.0.0"]).status == 0)
        try scratch.write("Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/Added.swift", "public struct Added {}\n")
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.root.appendingPathComponent("Packages").path).sorted()
        let stopped = try stop(["api-diff", "shelf-interface"], in: scratch, with: signal)
        #expect(!stopped.childRuns, "api-diff left its build running")
        #expect(stopped.status == 128 + signal, "\(stopped.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root.appendingPathComponent("Packages").path).sorted() == before)
        #expect(try ToolProcess.run(["--root", scratch.root.path, "sync"]).error.isEmpty, "no folder sync calls the user's")
    }

    /// A package whose manifest records its process id, then never ends, in a new repository.
    private func repositoryWithAManifestThatNeverEnds() throws -> (Scratch, pidFile: URL) {
        let scratch = try Scratch(named: "never-ending")
        let pidFile = scratch.root.deletingLastPathComponent().appendingPathComponent("manifest.pid")
        try scratch.package("Packages/Fine", name: "Fine")
        try scratch.write(
            "Packages/Loop/Package.swift",
            """
            // swift-tools-version: 5.9
            import PackageDescription
            import Foundation
            try "\\(ProcessInfo.processInfo.processIdentifier)".write(toFile: "\(pidFile.path).tmp", atomically: false, encoding: .utf8)
            try FileManager.default.moveItem(atPath: "\(pidFile.path).tmp", toPath: "\(pidFile.path)")
            while true { Thread.sleep(forTimeInterval: 1) }
            let package = Package(name: "Loop")
            """)
        try scratch.commitAsNewRepository()
        return (scratch, pidFile)
    }

    private func recordedProcess(_ pidFile: URL) -> pid_t {
        pid_t((try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    @Test func aManifestThatNeverEndsIsEndedAtItsTimeLimitWithEverythingSwiftPMStarted() throws {
        let (scratch, pidFile) = try repositoryWithAManifestThatNeverEnds()
        let run = try ToolProcess.run(["init"], in: scratch.root, environment: ["COMPONENTCTL_MANIFEST_TIMEOUT": "3"], timeout: 120)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("did not finish evaluating it in the time allowed"), "\(run.error)")
        #expect(run.error.contains("give it longer than 3 s"), "\(run.error)")
        #expect(run.error.contains("COMPONENTCTL_MANIFEST_TIMEOUT"), "the message names the setting that gives it longer")
        let manifest = recordedProcess(pidFile)
        #expect(manifest > 0, "the manifest ran")
        #expect(!isRunning(manifest), "the manifest SwiftPM started in a process group of its own was left running")
        if manifest > 0 { kill(manifest, SIGKILL) }
        let wrong = try ToolProcess.run(["check-layers"], in: scratch.root, environment: ["COMPONENTCTL_MANIFEST_TIMEOUT": "soon"], timeout: 60)
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("COMPONENTCTL_MANIFEST_TIMEOUT is 'soon'; set it to a number of seconds"), "\(wrong.error)")
    }

    @Test func aStopWhileSwiftPMEvaluatesAManifestEndsInitBeforeItWritesAnything() throws {
        let (scratch, pidFile) = try repositoryWithAManifestThatNeverEnds()
        let process = Process()
        process.executableURL = try ToolProcess.binary()
        process.arguments = ["init"]
        process.currentDirectoryURL = scratch.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: pidFile.path), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let manifest = recordedProcess(pidFile)
        #expect(manifest > 0, "the manifest ran")
        kill(-process.processIdentifier, SIGINT)
        let patience = Date().addingTimeInterval(30)
        while process.isRunning, Date() < patience { Thread.sleep(forTimeInterval: 0.05) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!hung, "init still waited 30 s after Ctrl-C")
        #expect(process.terminationStatus == 130, "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        #expect(!isRunning(manifest), "the manifest was left running")
        if manifest > 0 { kill(manifest, SIGKILL) }
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("components.yaml").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("componentctl-baseline.json").path))
    }

    @Test func whatAKilledComponentctlLeftOfAnEvaluationIsEndedAndRemovedByTheNext() throws {
        let (scratch, pidFile) = try repositoryWithAManifestThatNeverEnds()
        let temporary = scratch.root.deletingLastPathComponent().appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = try ToolProcess.binary()
        process.arguments = ["init"]
        process.currentDirectoryURL = scratch.root
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: pidFile.path), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let orphan = recordedProcess(pidFile)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(orphan > 0 && isRunning(orphan), "the manifest outlives a componentctl killed with SIGKILL")

        let next = try ToolProcess.run(
            ["init"], in: scratch.root, environment: ["TMPDIR": temporary.path, "COMPONENTCTL_MANIFEST_TIMEOUT": "3"], timeout: 120)
        #expect(next.status == 0, "\(next.error)")
        #expect(!isRunning(orphan), "the next evaluation ends what the killed one left running")
        if orphan > 0 { kill(orphan, SIGKILL) }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "nothing of either evaluation is left in TMPDIR: \(left)")
    }
}
