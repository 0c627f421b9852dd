import Foundation
import Testing
import TestSupport

/// `hash`, `cached` and `affected --format github-matrix` through the binary.
@Suite struct KeysCommandTests {
    private func tool(_ root: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Result {
        // --root first: what follows `cached ... --` is the step's command.
        try ToolProcess.run(["--root", root.path] + arguments, environment: environment)
    }

    @Test func keysAreTheSameInTwoClonesInDifferentFoldersAndSayWhatIsUncommitted() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.declareApps("  shelf-only:\n    components: [shelf]\n")
        try scratch.commitAll("an app")
        var keys: [String] = []
        for name in ["first", "second-clone-somewhere-else"] {
            let folder = try Scratch(named: name).root.appendingPathComponent("checkout")
            try scratch.run("/usr/bin/git", ["clone", "-q", scratch.root.path, folder.path])
            let json = try tool(folder, ["hash", "--format", "json"])
            #expect(json.status == 0, "\(json.error)")
            #expect(!json.output.contains(folder.path), "no path of the machine in a key's recipe")
            keys.append(json.output)
        }
        #expect(keys[0] == keys[1])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(keys[0].utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == (try scratch.load().components.map(\.name)) + ["app shelf-only"])
        #expect(rows.allSatisfy { ($0["key"] as? String)?.count == 64 && $0["uncommitted"] as? Bool == false })

        try scratch.write("Packages/Business/Reader/Sources/Reader/Note.swift", "let note = 1\n")
        let text = try tool(scratch.root, ["hash", "reader", "shelf", "--explain"])
        #expect(text.output.split(separator: "\n").contains { $0.hasPrefix("reader ") && $0.hasSuffix("uncommitted changes") })
        #expect(text.output.contains("Keys of reader include uncommitted changes (committed as they are, the keys stay the same)."))
        #expect(text.output.contains("reader:\n  componentctl key 1\n  component reader\n  tree "))
        let bare = try tool(scratch.root, ["hash", "reader", "--format", "key"]).output
        #expect(bare.count == 65 && bare.hasSuffix("\n"))

        let unknown = try tool(scratch.root, ["hash", "readr"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("Unknown component 'readr'. Did you mean 'reader'?"))
        let several = try tool(scratch.root, ["hash", "readr", "shelv", "readr", "reader", "--app", "nope", "--app", "nope"])
        #expect(several.status == 2)
        #expect(several.error.components(separatedBy: "error: ").count == 4, "each unknown name once, apps too: \(several.error)")
        #expect(several.error.contains("Unknown app 'nope'"))
        #expect(try tool(scratch.root, ["hash", "reader", "reader", "--format", "key"]).output.split(separator: "\n").count == 1)
        #expect(try tool(scratch.root, ["hash", "--app", "nope"]).status == 2)
    }

    @Test func aCachedStepRunsOnceForTheSameInputsAndAgainWhenOneChanges() throws {
        let scratch = try Scratch.fixtureRepository()
        let cache = try Scratch(named: "step-cache").root.path
        let counter = scratch.root.deletingLastPathComponent().appendingPathComponent("runs")
        let step = ["cached", "count", "--input", "components.yaml", "--package", "Packages/Business/Shelf", "--env", "STEP_FLAVOR", "--cache", cache]
        let command = ["--", "/bin/sh", "-c", "echo run >> \(counter.path)"]
        func runs() -> Int { ((try? String(contentsOf: counter, encoding: .utf8)) ?? "").split(separator: "\n").count }

        #expect(try tool(scratch.root, step + command).status == 0)
        let again = try tool(scratch.root, step + command)
        #expect(again.output.hasPrefix("count: cached (key "), "\(again.output)")
        #expect(runs() == 1)
        // A package it depends on by path (shelf -> catalog -> cache) is an input too.
        try scratch.write("Packages/Core/Cache/Sources/Cache/Note.swift", "let note = 1\n")
        #expect(try tool(scratch.root, step + command).status == 0)
        #expect(runs() == 2)
        #expect(try tool(scratch.root, step + command, environment: ["STEP_FLAVOR": "other"]).status == 0)
        #expect(runs() == 3, "a named variable is an input")
        // An unrelated file is not.
        try scratch.write("NOTES.md", "notes\n")
        #expect(try tool(scratch.root, step + command, environment: ["STEP_FLAVOR": "other"]).output.hasPrefix("count: cached"))

        let failing = try tool(scratch.root, ["cached", "fails", "--input", "components.yaml", "--cache", cache, "--", "/bin/sh", "-c", "exit 3"])
        #expect(failing.status == 3, "the command's own status")
        #expect(try tool(scratch.root, ["cached", "fails", "--input", "components.yaml", "--cache", cache, "--", "/bin/sh", "-c", "exit 3"]).status == 3)
        #expect(try tool(scratch.root, ["cached", "nothing", "--", "true"]).status == 2)
        #expect(
            try tool(scratch.root, ["cached", "outside", "--package", "../elsewhere", "--", "true"]).error.contains(
                "--package '../elsewhere' is outside the workspace"))

        // Asked to stop (SIGTERM): the step's command is interrupted too, and nothing is recorded.
        let started = counter.deletingLastPathComponent().appendingPathComponent("started")
        let interrupted = counter.deletingLastPathComponent().appendingPathComponent("interrupted")
        let script = "sleep 30 & trap \"kill $!; touch \(interrupted.path); exit 130\" INT; touch \(started.path); wait $!"
        let recorded = try FileManager.default.subpathsOfDirectory(atPath: cache).sorted()
        let stopped = Process()
        stopped.executableURL = try ToolProcess.binary()
        stopped.arguments = ["--root", scratch.root.path, "cached", "slow", "--input", "components.yaml", "--cache", cache, "--", "/bin/sh", "-c", script]
        stopped.standardOutput = FileHandle.nullDevice
        stopped.standardError = FileHandle.nullDevice
        try stopped.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: started.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.2)
        kill(stopped.processIdentifier, SIGTERM)
        while stopped.isRunning, Date() < deadline.addingTimeInterval(20) { Thread.sleep(forTimeInterval: 0.05) }
        if stopped.isRunning { kill(stopped.processIdentifier, SIGKILL) }
        stopped.waitUntilExit()
        #expect(stopped.terminationStatus == 143, "128 + SIGTERM")
        #expect(FileManager.default.fileExists(atPath: interrupted.path), "the command got the interrupt")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: cache).sorted() == recorded, "a stopped step is not recorded")
    }

    @Test func affectedGivesAMatrixGitHubTakesAsItIs() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("Packages/Core/Cache/Sources/Cache/Note.swift", "let note = 1\n")
        try scratch.commitAll("cache")
        let matrix = try tool(scratch.root, ["affected", "--base", "HEAD~1", "--format", "github-matrix"])
        #expect(matrix.output.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(matrix.output.utf8)) as? [String: [[String: String]]])
        #expect(object["include"]?.map { $0["name"] ?? "" } == ["shelf", "catalog", "cache"], "the App is the workflow's last job, not a matrix entry")
        #expect(object["include"]?.first?["path"] == "Packages/Business/Shelf")
        let all = try tool(scratch.root, ["affected", "--all", "--format", "json"]).output
        #expect(all.contains("\"reason\" : \"all\""))
        let badBase = try tool(scratch.root, ["affected", "--base", "no-such-branch"])
        #expect(badBase.status == 2)
        #expect(badBase.error.contains("--base 'no-such-branch' names no commit of this clone"))
        #expect(try tool(scratch.root, ["affected"]).status == 2)
        #expect(try tool(scratch.root, ["affected", "--all", "--base", "HEAD"]).status == 2)
        #expect(try tool(scratch.root, ["affected", "--base", "HEAD"]).output == "Nothing is affected.\n")
        #expect(try tool(scratch.root, ["affected", "--base", "HEAD", "--format", "json"]).output == "[]\n")
    }

    @Test func aMatrixOfMoreComponentsThanGitHubRunsSharesThemOutOverItsJobs() throws {
        let folder = try Scratch(named: "large").root.appendingPathComponent("workspace")
        #expect(try tool(folder.deletingLastPathComponent(), ["dev", "generate-workspace", folder.path, "--components", "600", "--files", "600"]).status == 0)
        let matrix = try tool(folder, ["affected", "--all", "--format", "github-matrix"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(matrix.output.utf8)) as? [String: [[String: String]]])["include"] ?? []
        #expect(entries.count <= 256, "GitHub makes at most 256 jobs of a matrix")
        let names = entries.flatMap { ($0["name"] ?? "").split(separator: " ").map(String.init) }
        let listed = try tool(folder, ["list", "--format", "json"])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names.sorted() == all.sorted(), "every component in exactly one job")
        #expect(entries.allSatisfy { ($0["name"] ?? "").split(separator: " ").count == ($0["path"] ?? "").split(separator: " ").count })
    }
}
