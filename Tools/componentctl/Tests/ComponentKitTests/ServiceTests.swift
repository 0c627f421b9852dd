import ComponentKit
import Foundation
import Testing
import TestSupport

/// The services behind `build`/`test` job selection and every command's access to the workspace, called directly.
@Suite struct ServiceTests {
    private func service(_ root: URL) -> BuildService {
        BuildService(root: root, action: .test, configuration: "debug", sharedScratch: false, swift: "/usr/bin/false")
    }

    @Test func buildSelectionsBecomeJobs() throws {
        let scratch = try Scratch.miniRepository()
        let workspace = try scratch.load()
        let service = service(scratch.root)
        let plan = { (selection: BuildSelection) in try BuildPlanner.plan(selection, in: workspace, service: service) }
        #expect(try plan(BuildSelection()).jobs.map(\.name) == ["app (integrated)"])
        #expect(try plan(BuildSelection()).integrated)
        // Dependencies first, so that a shared scratch folder reuses what their own builds compiled.
        #expect(try plan(BuildSelection(all: true)).jobs.map(\.name) == ["base", "feature"])
        // A component without test targets is built: `swift test` would refuse it ("no tests found").
        #expect(
            try plan(BuildSelection(components: ["base"])).jobs.map(\.arguments) == [["build", "--package-path", "Packages/Foundation/Base", "-c", "debug"]])
        try scratch.replace(
            in: "Packages/Foundation/Base/Package.swift", "targets: [.target(name: \"Base\")]",
            with: "targets: [.target(name: \"Base\"), .testTarget(name: \"BaseTests\", dependencies: [\"Base\"])]")
        // XCTest runs only for a component whose tests use it (else it just prints "Executed 0 tests").
        #expect(
            try plan(BuildSelection(components: ["base"])).jobs.map(\.arguments)
                == [["test", "--package-path", "Packages/Foundation/Base", "-c", "debug", "--disable-xctest"]])
        try scratch.write("Packages/Foundation/Base/Tests/BaseTests/Old.swift", "import XCTest\n")
        #expect(
            try plan(BuildSelection(components: ["base"])).jobs.map(\.arguments) == [["test", "--package-path", "Packages/Foundation/Base", "-c", "debug"]])
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Foundation/Base/Tests"))
        #expect(throws: WorkspaceError.unknownComponent("bse", suggestion: "base")) { try plan(BuildSelection(components: ["bse"])) }

        try scratch.write("Packages/Foundation/Base/Sources/Base/More.swift", "// more\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "base changed")
        let affected = try plan(BuildSelection(affectedBase: "HEAD~1"))
        #expect(affected.jobs.map(\.name) == ["base", "feature", "app (integrated)"])
        #expect(try plan(BuildSelection(mode: .standalone, affectedBase: "HEAD~1")).jobs.map(\.name) == ["base", "feature"])
        #expect(BuildPlanner.swiftExecutable(environment: ["COMPONENTCTL_SWIFT": "/opt/fake"]) == "/opt/fake")
    }

    @Test func dependenciesComeFirstThroughComponentsLeftOutAndCyclesKeepTheGivenOrder() {
        let graph = DependencyGraph(nodes: ["app", "mid", "low", "a", "b"], successors: ["app": ["mid"], "mid": ["low"], "a": ["b"], "b": ["a"]])
        #expect(graph.dependenciesFirst(["app", "low"]) == ["low", "app"])
        #expect(graph.dependenciesFirst(["low", "app", "low"]) == ["low", "app"])
        #expect(graph.dependenciesFirst(["a", "b"]) == ["b", "a"])
        #expect(graph.dependenciesFirst(["b", "a"]) == ["a", "b"])
    }

    @Test func accessRollsBackAPendingChangeAndSaysSo() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try ToolProcess.run(["release", "feature", "1.1.0", "--root", scratch.root.path]).status == 0)
        let before = try scratch.read("components.yaml")
        _ = try ToolProcess.run(["pin", "feature", "1.1.0", "--root", scratch.root.path], environment: ["COMPONENTCTL_FAULT": "write"])
        var reports: [String] = []
        let workspace = try WorkspaceAccess.read(root: scratch.root) { reports.append($0) }
        #expect(reports == ["note: Rolled back an interrupted 'componentctl pin feature 1.1.0': the workspace is as it was before it.\n"])
        #expect(workspace.component(named: "feature")?.pin == nil)
        #expect(try scratch.read("components.yaml") == before)

        let result = try WorkspaceAccess.change(root: scratch.root, report: { reports.append($0) }) { context in
            CommandResult(output: context.workspace.name)
        }
        #expect(result.output == "Mini")
        #expect(reports.count == 1)
    }
}
