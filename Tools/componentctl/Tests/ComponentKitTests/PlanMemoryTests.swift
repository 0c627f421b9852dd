import Foundation
import Testing
import TestSupport

@testable import ComponentKit

/// The plans kept in the shared scratch folder are guesses: any package path can be kept, and a plan that cannot be
/// written never stops a build.
@Suite struct PlanMemoryTests {
    private func plan(of package: String) -> PlanDescription {
        PlanDescription(package: package, buildFolder: "/w/.build/debug", modules: ["A"], testModules: ["A", "ATests"], dependencies: ["A": []])
    }

    @Test func aPlanOfAPackageWhosePathIsLongerThanAFileNameIsKeptAndReadBack() throws {
        let scratch = SharedScratch(root: try Scratch(named: "plans").root, configuration: "debug")
        let path = (1...12).map { "a-nested-folder-\($0)" }.joined(separator: "/")
        var memory = PlanMemory(scratch: scratch, flags: [])
        memory.remember(plan(of: path))
        memory.remember(plan(of: "Packages/Kit"))
        let read = PlanMemory(scratch: scratch, flags: [])
        #expect(read.plans == [path: plan(of: path), "Packages/Kit": plan(of: "Packages/Kit")])
        #expect(PlanMemory(scratch: scratch, flags: ["-Xswiftc", "-DX"]).plans.isEmpty, "other flags keep plans of their own")
    }

    @Test func aPlanThatCannotBeWrittenIsKeptForTheRunOnly() throws {
        let scratch = SharedScratch(root: try Scratch(named: "plans").root, configuration: "debug")
        var memory = PlanMemory(scratch: scratch, flags: [])
        try FileManager.default.createDirectory(at: memory.folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("a file where the folder goes\n".utf8).write(to: memory.folder)
        memory.remember(plan(of: "Packages/Kit"))
        #expect(memory.plans["Packages/Kit"] == plan(of: "Packages/Kit"))
        #expect(PlanMemory(scratch: scratch, flags: []).plans.isEmpty)
    }
}
