import Foundation
import Testing
import TestSupport

/// The user's promise: `componentctl pin reader 1.1.0` makes the integrated App behave as reader 1.1.0
/// did, while everything else stays live; `unpin` brings the live component back. Builds the fixture's App for real.
@Suite(.tags(.buildsPackages), .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct PinnedAppTests {
    @Test(.timeLimit(.minutes(20)))
    func pinnedReleaseRunsInTheIntegratedApp() throws {
        let scratch = try Scratch.fixtureRepository()
        let tool = { (arguments: [String]) in try ToolProcess.run(arguments + ["--root", scratch.root.path]) }
        #expect(try tool(["release", "reader", "1.1.0"]).status == 0)
        try scratch.replace(in: "Packages/Business/Reader/Sources/Reader/ReaderModule.swift", "Reading book", with: "Now reading book")
        try scratch.replace(in: "Packages/Business/Shelf/Sources/Shelf/ShelfModule.swift", "Page(title: \"Shelf\"", with: "Page(title: \"Bookcase\"")
        try scratch.git("commit", "-qam", "live changes to reader and shelf")

        func runApp() throws -> String {
            try scratch.run("/usr/bin/env", ["swift", "build", "--product", "App"])
            return try scratch.run(scratch.root.appendingPathComponent(".build/debug/App").path, [])
        }

        #expect(try tool(["pin", "reader", "1.1.0"]).status == 0)
        let pinned = try runApp()
        #expect(pinned.contains("\nReading book 1."))
        #expect(pinned.hasPrefix("== Bookcase ==")) // shelf stays live

        #expect(try tool(["unpin", "reader"]).status == 0)
        #expect(try runApp().contains("\nNow reading book 1."))
    }
}
