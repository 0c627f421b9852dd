import Foundation
import Testing
import TestSupport

/// The generated GitHub Actions workflow, checked by actionlint, kept up to date by `sync`, and run for real
/// by the local runner on a fixture that holds componentctl's sources: each job in a fresh clone, the matrix
/// from what `affected` printed.
@Suite(.tags(.buildsPackages), .serialized, .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct CIWorkflowTests {
    static let workflow = ".github/workflows/components.yml"

    private func tool(_ scratch: Scratch, _ arguments: [String]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    @Test func theWorkflowIsGeneratedLintedAndKeptUpToDateWithoutTouchingTheTeamsLines() throws {
        let scratch = try Scratch.fixtureWithTool()
        let written = try tool(scratch, ["ci", "github"])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output.hasPrefix("Wrote \(Self.workflow)"))
        let lint = try scratch.run("/usr/bin/env", ["actionlint", scratch.root.appendingPathComponent(Self.workflow).path])
        #expect(lint.isEmpty, "actionlint: \(lint)")
        #expect(try tool(scratch, ["ci", "github", "--check"]).status == 0)
        #expect(try tool(scratch, ["sync", "--check"]).status == 0)
        let link = scratch.root.deletingLastPathComponent().appendingPathComponent("linked-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: scratch.root)
        defer { try? FileManager.default.removeItem(at: link) }
        let throughLink = try ToolProcess.run(["sync", "--check", "--root", link.path])
        #expect(throughLink.status == 0, "a root reached through a link (as macOS's /tmp is) is the same workspace: \(throughLink.output)\(throughLink.error)")

        // A team's own lines outside the markers stay; an app added to components.yaml makes the jobs stale.
        try scratch.replace(in: Self.workflow, "name: components\n", with: "name: components\n# our note\n")
        let ownJob = "  lint-docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo docs\n"
        try scratch.write(Self.workflow, try scratch.read(Self.workflow) + ownJob)
        try scratch.declareApps("  shelf-only:\n    components: [shelf]\n")
        let stale = try tool(scratch, ["sync", "--check"])
        #expect(stale.status == 1)
        #expect(stale.output.contains("regenerate the jobs of \(Self.workflow)"))
        #expect(try tool(scratch, ["ci", "github", "--check"]).status == 1)
        #expect(try tool(scratch, ["sync"]).status == 0)
        let updated = try scratch.read(Self.workflow)
        #expect(updated.contains("test --app shelf-only --verbose"))
        #expect(updated.contains("# our note\n") && updated.hasSuffix(ownJob))
        #expect(try tool(scratch, ["ci", "github", "--check"]).status == 0)

        // A block pasted twice, and a file that is no YAML (outside the block too): refused, the file as it was.
        let good = try scratch.read(Self.workflow)
        try scratch.write(Self.workflow, good + "  # BEGIN componentctl: jobs\n  # END componentctl: jobs\n")
        let twice = try tool(scratch, ["ci", "github"])
        #expect(twice.status == 2)
        #expect(twice.error.contains("has '# BEGIN componentctl: jobs' more than once"))
        try scratch.write(Self.workflow, good + "notes: [unclosed\n")
        for arguments in [["ci", "github"], ["sync", "--check"]] {
            let invalid = try tool(scratch, arguments)
            #expect(invalid.status == 2, "\(arguments)")
            #expect(invalid.error.hasPrefix("\(Self.workflow):"), "\(invalid.error)")
            #expect(invalid.error.contains("invalid YAML"))
        }
        #expect(try scratch.read(Self.workflow) == good + "notes: [unclosed\n")
        // A file with CRLF line ends gets CRLF in the lines componentctl writes.
        try scratch.write(
            Self.workflow, good.replacingOccurrences(of: "test --app shelf-only --verbose", with: "test").replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try tool(scratch, ["ci", "github"]).status == 0)
        #expect(try scratch.read(Self.workflow) == good.replacingOccurrences(of: "\n", with: "\r\n"))
        try scratch.write(Self.workflow, good)

        try scratch.replace(in: Self.workflow, "  # BEGIN componentctl: jobs\n", with: "")
        let broken = try tool(scratch, ["ci", "github"])
        #expect(broken.status == 2)
        #expect(broken.error.contains("has no '# BEGIN componentctl: jobs' ... '# END componentctl: jobs' block"))
    }

    @Test func theLocalRunnerRunsTheMatrixAffectedPrintedEachJobInAFreshClone() throws {
        let scratch = try Scratch.fixtureWithTool()
        #expect(try tool(scratch, ["ci", "github"]).status == 0)
        try scratch.commitAll("the workflow")
        try scratch.replace(in: "Packages/Business/Reader/Sources/Reader/ReaderModule.swift", "opens books", with: "opens books, page by page")
        try scratch.commitAll("a change to the reader")
        let actionsCache = scratch.root.deletingLastPathComponent().appendingPathComponent("actions-cache").path

        let first = try tool(scratch, ["ci", "local", "--base", "HEAD~1", "--actions-cache", actionsCache])
        #expect(first.status == 0, "\(first.output)\(first.error)")
        #expect(first.output.contains(#"== component: matrix of 1 from {"name":"reader","path":"Packages/Business/Reader","reason":"changed"}"#))
        #expect(first.output.contains("   - Build componentctl: ok"))
        #expect(first.output.contains("ci local: 3 jobs passed, 0 failed, 0 skipped"))

        // The caches the jobs saved are restored: the tool is not built again, the reader's result is taken.
        let second = try tool(scratch, ["ci", "local", "--base", "HEAD~1", "--actions-cache", actionsCache, "--keep"])
        #expect(second.status == 0)
        #expect(second.output.contains("   - Build componentctl: skipped"))
        let kept = try #require(second.output.split(separator: "\n").first { $0.hasPrefix("Clones, caches and logs: ") }).dropFirst(25)
        #expect(try String(contentsOfFile: "\(kept)/logs/component--reader-.log", encoding: .utf8).contains("[1/1] reader  cached"))

        // A component whose test fails fails its job, and the last job does not run.
        try scratch.replace(
            in: "Packages/Business/Reader/Tests/ReaderTests/ReaderTests.swift", "#expect(", with: "#expect(Bool(false)); #expect(")
        try scratch.commitAll("a broken test")
        let failing = try tool(scratch, ["ci", "local", "--base", "HEAD~1", "--actions-cache", actionsCache, "--keep"])
        #expect(failing.status == 4)
        // Its key is new; what earlier runs compiled comes back by the key's prefix.
        let keptAgain = try #require(failing.output.split(separator: "\n").first { $0.hasPrefix("Clones, caches and logs: ") }).dropFirst(25)
        let log = try String(contentsOfFile: "\(keptAgain)/logs/component--reader-.log", encoding: .utf8)
        #expect(log.contains("Restored .build/componentctl-shared from the cache saved as 'componentctl-scratch-reader-"), "\(log)")
        #expect(failing.output.contains("component (reader)  failure"))
        #expect(failing.output.contains("app                 skipped"))
        #expect(failing.output.contains("component (reader) failed; the end of its log:"))
    }

    @Test func theWorkflowOfAWorkspaceWithoutTheToolsSourcesRunsTheInstalledTool() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["ci", "github"]).status == 0)
        try scratch.commitAll("the workflow")
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/More.swift", "public let more = 1\n")
        try scratch.commitAll("a change to shelf")
        let folder = try ToolProcess.binary().deletingLastPathComponent().path
        let withTool = try ToolProcess.run(
            ["ci", "local", "--base", "HEAD~1", "--root", scratch.root.path],
            environment: ["PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
        #expect(withTool.status == 0, "\(withTool.output)\(withTool.error)")
        #expect(withTool.output.contains("   - Check that the image has componentctl: ok"), "\(withTool.output)")
        #expect(withTool.output.contains("ci local: 3 jobs passed, 0 failed, 0 skipped"), "\(withTool.output)")
        let without = try ToolProcess.run(["ci", "local", "--base", "HEAD~1", "--root", scratch.root.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(without.status != 0)
        #expect(without.output.contains("Check that the image has componentctl: FAILED"), "\(without.output)\(without.error)")
    }

    @Test func anActionOrExpressionTheRunnerDoesNotKnowStopsTheRunWithWhatItIs() throws {
        let scratch = try Scratch.fixtureRepository()
        let workflow = ".github/workflows/other.yml"
        try scratch.write(workflow, "on: push\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: someone/something@v1\n")
        try scratch.commitAll("another workflow")
        let unknownAction = try tool(scratch, ["ci", "local", "--workflow", workflow])
        #expect(unknownAction.status == 2)
        #expect(unknownAction.error.contains("The local runner does not know the action 'someone/something@v1'"))
        try scratch.write(workflow, "on: push\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ secrets.TOKEN }}\n")
        try scratch.commitAll("a secret")
        let unknownContext = try tool(scratch, ["ci", "local", "--workflow", workflow])
        #expect(unknownContext.status != 0)
        #expect(unknownContext.error.contains("uses the context 'secrets', which the local runner does not provide"))
        #expect(try tool(scratch, ["ci", "local", "--workflow", ".github/workflows/none.yml"]).error.contains("There is no workflow at"))
    }
}
