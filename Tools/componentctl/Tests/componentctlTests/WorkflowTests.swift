import Foundation
import Testing
import TestSupport

/// affected, status, build/test orchestration and new, through the built binary on real repositories.
@Suite struct WorkflowTests {
    private func tool(_ scratch: Scratch, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path], environment: environment)
    }

    private func affected(_ scratch: Scratch, _ arguments: String...) throws -> [[String: String]] {
        let result = try tool(scratch, ["affected", "--format", "json"] + arguments)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]])
    }

    @Test func affectedFollowsDependentsAndIgnoresUnrelatedFiles() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("NOTES.md", "unrelated\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "notes")
        // No component; the fixture declares no app paths, so the app is everything outside the components, as its key is.
        let appOnly = [["name": "app", "kind": "app", "path": ".", "reason": "changed"]]
        #expect(try affected(scratch, "--base", "HEAD~1") == appOnly)

        try scratch.write("Packages/Core/Catalog/Sources/Catalog/Extra.swift", "// more\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "session")
        let rows = try affected(scratch, "--base", "HEAD~1")
        #expect(
            rows == [
                ["name": "shelf", "kind": "component", "path": "Packages/Business/Shelf", "reason": "dependent"],
                ["name": "catalog", "kind": "component", "path": "Packages/Core/Catalog", "reason": "changed"],
                ["name": "app", "kind": "app", "path": ".", "reason": "dependent"],
            ])
        #expect(try affected(scratch, "--base", "HEAD~2", "--head", "HEAD~1") == appOnly)

        try scratch.write("Packages/Foundation/Values/Sources/Values/Wip.swift", "// wip\n")
        let uncommitted = try affected(scratch, "--base", "HEAD", "--uncommitted").map { $0["name"] ?? "" }
        // shelf reaches values through reader-interface and catalog; shelf-interface, routing and kit do not depend on it.
        #expect(uncommitted == ["shelf", "reader", "reader-interface", "catalog", "cache", "values", "app"])

        let unknown = try tool(scratch, ["affected", "--base", "nope"])
        #expect(unknown.status == 2, "a base that names nothing is the user's input")
        #expect(unknown.error.contains("--base 'nope' names no commit of this clone"))
    }

    @Test func statusCountsUnreleasedCommitsAndLocalChanges() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["release", "shelf", "1.1.0"]).status == 0)
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/A.swift", "// a\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "a")
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/B.swift", "// b\n")
        let result = try tool(scratch, ["status", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let shelf = try #require(rows.first { $0["name"] as? String == "shelf" })
        #expect(shelf["commitsSinceRelease"] as? Int == 1)
        #expect(shelf["changedFiles"] as? Int == 1)
        #expect(shelf["version"] as? String == "1.1.0")
        let reader = try #require(rows.first { $0["name"] as? String == "reader" })
        #expect(reader["commitsSinceRelease"] as? Int == 1)
        #expect(reader["changedFiles"] as? Int == 0)
        let text = try tool(scratch, ["status"]).output
        let shelfLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("shelf ") })
        #expect(shelfLine.contains(" 1.1.0 ") && shelfLine.contains(" 1 commit ") && shelfLine.contains(" 1 file "))
        let readerLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("reader ") })
        #expect(readerLine.contains("(no release)") && readerLine.contains("never released"))
        #expect(text.contains("components have no release tag in this clone"))
        #expect(try tool(scratch, ["versions", "reader"]).output.contains("'reader' has no release in this clone"))
    }

    /// A stand-in for `swift` that fails for one package, so orchestration is tested without compiling.
    @Test func buildReportsEachComponentAndExitsFourNamingTheFailure() throws {
        let scratch = try Scratch.fixtureRepository()
        let swift = try scratch.fakeSwift(failing: "Business/Reader")
        let result = try tool(scratch, ["test", "shelf", "reader", "values"], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(result.status == 4)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0] == "[1/3] values  test ...", "shelf and reader depend on values: it goes first")
        #expect(lines.contains { $0.hasPrefix("[3/3] reader  FAILED") }, "after values, which it depends on")
        #expect(lines.contains("reader: test failed; see .build/componentctl-logs/reader-test.log"))
        #expect(lines.last == "test: 2 passed, 1 failed")
        #expect(try scratch.read(".build/componentctl-logs/reader-test.log").contains("swift test --package-path Packages/Business/Reader -c debug"))
        #expect(try scratch.read(".build/componentctl-logs/reader-test.log").contains("error: broken on purpose"))
    }

    @Test func integratedAndAllAndAffectedChooseTheRightCommands() throws {
        let scratch = try Scratch.fixtureRepository()
        let swift = try scratch.fakeSwift(failing: "never")
        let integrated = try tool(scratch, ["build", "-c", "release"], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(integrated.status == 0)
        #expect(try scratch.read(".build/componentctl-logs/app-(integrated)-build.log").hasPrefix("$ swift build -c release"), "every app of the workspace")
        let all = try tool(scratch, ["build", "--all"], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(all.output.hasSuffix("build: 9 passed, 0 failed\n"))
        #expect(try scratch.read(".build/componentctl-logs/routing-build.log").contains("--scratch-path .build/componentctl-shared"))
        #expect(try tool(scratch, ["build", "nope"]).status == 2)
        #expect(try tool(scratch, ["build", "--affected"]).status == 2)
        #expect(try tool(scratch, ["build", "--integrated", "shelf"]).status == 2)

        try scratch.write("Packages/Core/Catalog/Sources/Catalog/X.swift", "// x\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "x")
        let affected = try tool(scratch, ["test", "--affected", "--base", "HEAD~1"], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(affected.output.contains("[1/3] catalog  test"))
        #expect(affected.output.contains("[2/3] shelf  test"))
        #expect(affected.output.contains("[3/3] app (integrated)  test"))
    }

    @Test func aTerminalGetsALiveProgressLine() throws {
        let scratch = try Scratch.fixtureRepository()
        let slow = scratch.root.appendingPathComponent("slow-swift").path
        try Data("#!/bin/sh\nsleep 1.2\n".utf8).write(to: URL(fileURLWithPath: slow))
        try scratch.run("/bin/chmod", ["755", slow])
        // `script` runs the tool on a pseudo-terminal, as a developer's shell would.
        let command = "\(try ToolProcess.binary().path) build values --scratch package --root \(scratch.root.path)"
        let output = try scratch.run("/usr/bin/script", ["-q", "-c", command, "/dev/null"], environment: ["COMPONENTCTL_SWIFT": slow])
        #expect(output.contains("\r\u{1B}[2K[1/1] values  build  00:0"))
        #expect(output.contains("\r\u{1B}[2K[1/1] values  ok  1."))
    }
}
