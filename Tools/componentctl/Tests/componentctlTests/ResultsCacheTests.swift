import Foundation
import Testing
import TestSupport

/// `componentctl test` with a results cache, through the binary and a stand-in for `swift`: a component
/// whose key passed is skipped, anything that changes a key runs it again, and no fault of the store fails
/// a run. The remote store is a real nginx speaking Bazel's HTTP remote-cache protocol.
@Suite(.serialized) struct ResultsCacheTests {
    private func tool(_ scratch: Scratch, _ arguments: [String], swift: String, cache: String? = nil) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path] + (cache.map { ["--cache", $0] } ?? []), environment: ["COMPONENTCTL_SWIFT": swift])
    }

    private func lines(_ result: ToolProcess.Result, _ state: String) -> [String] {
        result.output.split(separator: "\n").filter { $0.contains("  \(state)") && $0.hasPrefix("[") }.map {
            String($0.split(separator: " ")[1])
        }
    }

    private func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aPassedKeyIsSkippedUntilSomethingItDependsOnChanges() throws {
        let scratch = try Scratch.fixtureRepository()
        let swift = try scratch.fakeSwift(failing: "never")
        let cache = try emptyFolder().path
        let first = try tool(scratch, ["test", "shelf", "reader", "values"], swift: swift, cache: cache)
        #expect(first.status == 0)
        #expect(lines(first, "ok") == ["values", "shelf", "reader"])
        #expect(first.output.hasSuffix("test: 3 passed, 0 failed\n"))

        let second = try tool(scratch, ["test", "shelf", "reader", "values"], swift: swift, cache: cache)
        #expect(lines(second, "cached") == ["values", "shelf", "reader"])
        #expect(second.output.contains("shelf      cached  ("), "the summary table says cached, with the time of the run that passed")
        #expect(second.output.hasSuffix("test: 3 passed (3 cached), 0 failed\n"))
        let shelfKey = try ToolProcess.run(["hash", "shelf", "--format", "key", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(second.output.contains("shelf  cached  key \(shelfKey.output.prefix(12))"), "with the key")

        // Two levels below shelf (shelf -> catalog -> cache), uncommitted: shelf runs again, reader and values do not.
        try scratch.write("Packages/Core/Cache/Sources/Cache/Note.swift", "let note = 1\n")
        let changed = try tool(scratch, ["test", "shelf", "reader", "values"], swift: swift, cache: cache)
        #expect(lines(changed, "ok") == ["shelf"])
        #expect(lines(changed, "cached") == ["values", "reader"])
        #expect(changed.output.contains("keys include uncommitted changes of shelf"))
        // Committed as it is, the key is the same: nothing runs.
        try scratch.commitAll("a note")
        #expect(lines(try tool(scratch, ["test", "shelf"], swift: swift, cache: cache), "cached") == ["shelf"])
        // --no-cache runs it anyway; the integrated App is cached by its own key.
        let noCache = try ToolProcess.run(
            ["test", "shelf", "--no-cache", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift, "COMPONENTCTL_CACHE": cache])
        #expect(lines(noCache, "ok") == ["shelf"])
        #expect(try tool(scratch, ["test", "shelf", "--no-cache"], swift: swift, cache: cache).status == 2, "--no-cache and --cache contradict")
        #expect(lines(try tool(scratch, ["test", "--integrated"], swift: swift, cache: cache), "ok") == ["app"])
        #expect(lines(try tool(scratch, ["test", "--integrated"], swift: swift, cache: cache), "cached") == ["app"])
        // Builds are never skipped: the user wants what they make.
        #expect(lines(try tool(scratch, ["build", "shelf"], swift: swift, cache: cache), "ok") == ["shelf"])
    }

    @Test func failedAndInterruptedRunsRecordNothing() throws {
        let scratch = try Scratch.fixtureRepository()
        let cache = try emptyFolder()
        let failing = try scratch.fakeSwift(failing: "Business/Reader")
        let failed = try tool(scratch, ["test", "shelf", "reader"], swift: failing, cache: cache.path)
        #expect(failed.status == 4)
        let again = try tool(scratch, ["test", "shelf", "reader"], swift: failing, cache: cache.path)
        #expect(lines(again, "cached") == ["shelf"])
        #expect(lines(again, "FAILED") == ["reader"], "a failure is not remembered")

        // Killed while the test runs: nothing of that run is recorded.
        let slow = scratch.root.appendingPathComponent("slow-swift")
        try Data("#!/bin/sh\ncase \"$*\" in --version) echo \"swift --version\"; exit 0;; esac\nsleep 30\n".utf8).write(to: slow)
        try scratch.run("/bin/chmod", ["755", slow.path])
        let before = try FileManager.default.subpathsOfDirectory(atPath: cache.path).sorted()
        let process = Process()
        process.executableURL = try ToolProcess.binary()
        process.arguments = ["test", "values", "--root", scratch.root.path, "--cache", cache.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["COMPONENTCTL_SWIFT": slow.path]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = scratch.root.appendingPathComponent(".build/componentctl-logs/values-test.log")
        let deadline = Date().addingTimeInterval(20)
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("swift test"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try FileManager.default.subpathsOfDirectory(atPath: cache.path).sorted() == before)

        // Asked to stop (SIGTERM, as a CI runner cancels): the test it runs is interrupted too, not left running.
        let marker = scratch.root.appendingPathComponent("interrupted")
        try Data(
            """
            #!/bin/sh
            case "$*" in --version) echo "swift --version"; exit 0;; esac
            sleep 30 &
            trap "kill $!; echo interrupted > \(marker.path); exit 130" INT
            wait $!

            """.utf8
        ).write(to: slow)
        try FileManager.default.removeItem(at: log)
        let stopped = Process()
        stopped.executableURL = try ToolProcess.binary()
        stopped.arguments = process.arguments
        stopped.environment = process.environment
        stopped.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        stopped.standardError = errors
        try stopped.run()
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("swift test"), Date() < deadline.addingTimeInterval(20) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(stopped.processIdentifier, SIGTERM)
        let patience = Date().addingTimeInterval(20)
        while stopped.isRunning, Date() < patience { Thread.sleep(forTimeInterval: 0.05) }
        if stopped.isRunning { kill(stopped.processIdentifier, SIGKILL) }
        stopped.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stopped.terminationStatus == 143, "128 + SIGTERM, as a shell reports it")
        #expect(said.contains("Stopped (signal 15) while running values"), "\(said)")
        #expect(FileManager.default.fileExists(atPath: marker.path), "the test got the interrupt")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: cache.path).sorted() == before)
    }

    @Test func aDamagedUnusableOrReadOnlyStoreIsAWarningAndTheTestsRun() throws {
        let scratch = try Scratch.fixtureRepository()
        let swift = try scratch.fakeSwift(failing: "never")
        let cache = try emptyFolder()
        #expect(try tool(scratch, ["test", "values"], swift: swift, cache: cache.path).status == 0)
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("ac").path)
        #expect(entries.count == 1)

        // An action-cache entry that is not one.
        for entry in entries { try Data("garbage".utf8).write(to: cache.appendingPathComponent("ac/\(entry)")) }
        let garbage = try tool(scratch, ["test", "values"], swift: swift, cache: cache.path)
        #expect(garbage.status == 0)
        #expect(lines(garbage, "ok") == ["values"])
        #expect(garbage.error.contains("is not one componentctl wrote; it is ignored"))
        // A record whose content no longer matches its hash.
        for record in try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("cas").path) {
            try Data("{\"tampered\": true}".utf8).write(to: cache.appendingPathComponent("cas/\(record)"))
        }
        let tampered = try tool(scratch, ["test", "values"], swift: swift, cache: cache.path)
        #expect(lines(tampered, "ok") == ["values"])
        #expect(tampered.error.contains("is damaged; it is ignored"))

        // A store that cannot be written (a file where the folder should be).
        let file = try emptyFolder().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let unusable = try tool(scratch, ["test", "values"], swift: swift, cache: file.path)
        #expect(unusable.status == 0)
        #expect(unusable.error.contains("could not record a result"))

        // Read-only: results are taken, none is written.
        let empty = try emptyFolder()
        let readOnly = try tool(scratch, ["test", "values", "--cache-read-only"], swift: swift, cache: empty.path)
        #expect(lines(readOnly, "ok") == ["values"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
        #expect(lines(try tool(scratch, ["test", "values", "--cache-read-only"], swift: swift, cache: cache.path), "cached") == ["values"])

        let wrong = try tool(scratch, ["test", "values"], swift: swift, cache: "ftp://example.com/cache")
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("The results cache 'ftp://example.com/cache' is no folder and no http(s):// URL"))
        let noValue = try tool(scratch, ["test", "values"], swift: swift, cache: "")
        #expect(noValue.status == 2)
        #expect(noValue.error.contains("--cache was given no value"))
        for off in ["OFF", "none"] {
            let result = try ToolProcess.run(
                ["test", "values", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift, "COMPONENTCTL_CACHE": off])
            #expect(lines(result, "ok") == ["values"])
            #expect(!result.output.contains("Results cache"), "\(off) turns the cache off")
        }
        // A folder inside the workspace that git does not ignore would change the keys it records.
        let inside = try tool(scratch, ["test", "values"], swift: swift, cache: scratch.root.appendingPathComponent("results").path)
        #expect(inside.status == 2)
        #expect(inside.error.contains("is inside the repository and git does not ignore it"))
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("results").path), "nothing written in the work tree")
        try scratch.write(".gitignore", ((try? scratch.read(".gitignore")) ?? "") + "results/\n")
        #expect(!(try tool(scratch, ["test", "values"], swift: swift, cache: scratch.root.appendingPathComponent("results").path).error.contains("inside")))
    }

    @Test func aBazelRemoteCacheOnNginxSharesResultsBetweenClones() throws {
        let server = try CacheServer()
        defer { server.stop() }
        let scratch = try Scratch.fixtureRepository()
        let swift = try scratch.fakeSwift(failing: "never")
        #expect(lines(try tool(scratch, ["test", "shelf", "values"], swift: swift, cache: server.url()), "ok") == ["values", "shelf"])
        #expect(server.requests.filter { $0.hasPrefix("PUT /cache/ac/") && $0.hasSuffix(" 201") }.count == 2, "\(server.requests)")
        #expect(server.requests.filter { $0.hasPrefix("PUT /cache/cas/") }.count == 2)

        // Another clone of the same commit, in another folder: the same keys, so the same results.
        let other = try Scratch(named: "other-clone")
        try other.run("/usr/bin/git", ["clone", "-q", scratch.root.path, other.root.path + "/clone"])
        let clone = Scratch(root: other.root.appendingPathComponent("clone"))
        let shared = try tool(clone, ["test", "shelf", "values"], swift: swift, cache: server.url())
        #expect(lines(shared, "cached") == ["values", "shelf"], "\(shared.output)\(shared.error)")

        // A server that answers errors, one that refuses writes, one that is not there: warnings, and the tests run.
        let broken = try tool(scratch, ["test", "shelf", "values"], swift: swift, cache: server.url("broken"))
        #expect(broken.status == 0)
        #expect(lines(broken, "ok") == ["values", "shelf"])
        #expect(broken.error.contains("answered 500"))
        let refusing = try tool(scratch, ["test", "values"], swift: swift, cache: server.url("readonly"))
        #expect(refusing.status == 0)
        #expect(refusing.error.contains("could not record a result"))
        let down = try tool(scratch, ["test", "shelf", "values"], swift: swift, cache: "http://127.0.0.1:\(try CacheServer.freePort())/cache")
        #expect(down.status == 0)
        #expect(lines(down, "ok") == ["values", "shelf"])
        #expect(down.error.components(separatedBy: "cannot be reached").count == 2, "said once, not once a job: \(down.error)")

        // Read-only against the real cache: a new key is tested, and nothing is written.
        try scratch.write("Packages/Foundation/Values/Sources/Values/Note.swift", "let note = 1\n")
        let puts = server.requests.filter { $0.hasPrefix("PUT") }.count
        let readOnly = try tool(scratch, ["test", "values", "--cache-read-only"], swift: swift, cache: server.url())
        #expect(lines(readOnly, "ok") == ["values"])
        #expect(server.requests.filter { $0.hasPrefix("PUT") }.count == puts)
    }
}
