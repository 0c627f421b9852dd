import Foundation
import Testing
import TestSupport

@testable import ComponentKit

/// The shortcuts that make a key of a large workspace cheap never hide a change: the index's cache tree skips the
/// comparison of HEAD with the index only when it proves them equal, and a toolchain's version is remembered only
/// while its files stay the same.
@Suite struct StatusShortcutTests {
    private func repository() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("a/one.txt", "1\n")
        try scratch.write("b/two.txt", "2\n")
        try scratch.commitAsNewRepository()
        return scratch
    }

    private func rootTree(_ scratch: Scratch) -> String? {
        IndexFile.read(at: scratch.root.appendingPathComponent(".git/index"))?.rootTree.map { $0.map { String(format: "%02x", $0) }.joined() }
    }

    @Test(arguments: ["2", "3", "4"])
    func theCacheTreeOfEveryIndexVersionIsReadAsGitWroteIt(version: String) throws {
        let scratch = try repository()
        try scratch.git("update-index", "--index-version", version)
        // A long path and an extended (intent-to-add) entry exercise the padding and the extra flags.
        try scratch.write(String(repeating: "deep/", count: 30) + "file.txt", "3\n")
        try scratch.commitAll("deep")
        try scratch.git("write-tree")
        #expect(rootTree(scratch) == (try scratch.git("rev-parse", "HEAD^{tree}")).trimmingCharacters(in: .whitespacesAndNewlines))
        try scratch.write("c.txt", "4\n")
        try scratch.git("add", "-N", "c.txt")
        #expect(rootTree(scratch) == nil, "an entry added since invalidates the root")
    }

    /// A damaged index is read as no index (libgit2 then says what is wrong), never half: a count that is off, an entry
    /// cut short, entries out of git's order.
    @Test func aDamagedIndexIsNoIndex() throws {
        let scratch = try repository()
        let bytes = Array(try Data(contentsOf: scratch.root.appendingPathComponent(".git/index")))
        #expect(IndexFile(bytes)?.entries.count == 2)
        var counted = bytes
        counted.replaceSubrange(8..<12, with: [0xff, 0xff, 0xff, 0xff])
        #expect(IndexFile(counted) == nil)
        #expect(IndexFile(Array(bytes.prefix(80))) == nil)
        // The first path, "a/one.txt", renamed "c/one.txt": it now sorts after the second, "b/two.txt".
        var disordered = bytes
        #expect(disordered[12 + 62] == UInt8(ascii: "a"))
        disordered[12 + 62] = UInt8(ascii: "c")
        #expect(IndexFile(disordered) == nil)
    }

    @Test func aStagedChangeIsAChangeEvenWhenTheCacheTreeIsValid() throws {
        let scratch = try repository()
        try scratch.write("a/one.txt", "changed\n")
        try scratch.git("add", "a/one.txt")
        // write-tree makes the cache tree valid again, for a tree that is not HEAD's.
        try scratch.git("write-tree")
        #expect(rootTree(scratch) != nil)
        let repository = try GitRepository(containing: scratch.root)
        #expect(try repository.changedFiles(under: "") == ["a/one.txt"])
        try scratch.git("commit", "-qm", "staged")
        #expect(try repository.changedFiles(under: "").isEmpty)
        try scratch.write("b/two.txt", "unstaged\n")
        try scratch.write("b/new.txt", "untracked\n")
        #expect(try repository.changedFiles(under: "") == ["b/new.txt", "b/two.txt"])
    }

    /// Files are hashed as their bytes are only where no attribute file outside the tree can filter them: a linked
    /// worktree reads the repository's common info/attributes.
    @Test func attributesOfTheCommonFolderCountInALinkedWorktree() throws {
        let scratch = try repository()
        let worktree = scratch.root.appendingPathComponent("linked")
        try scratch.git("worktree", "add", "-q", worktree.path)
        #expect(try GitRepository(containing: worktree).hasNoFilterSettings())
        try scratch.write(".git/info/attributes", "*.txt text eol=lf\n")
        #expect(try !GitRepository(containing: worktree).hasNoFilterSettings())
        #expect(try !GitRepository(containing: scratch.root).hasNoFilterSettings())
        try scratch.git("config", "core.autocrlf", "input")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent(".git/info/attributes"))
        #expect(try !GitRepository(containing: worktree).hasNoFilterSettings())
    }

    @Test func aToolchainVersionIsRememberedUntilItsCompilerChanges() throws {
        let scratch = try Scratch()
        let runs = scratch.root.appendingPathComponent("runs")
        try scratch.write("toolchain/swift", "#!/bin/sh\necho run >> '\(runs.path)'\necho 'Swift version 9.9'\n")
        try scratch.write("toolchain/swift-frontend", "one\n")
        try scratch.write("shim/swift", "#!/bin/sh\necho run >> '\(runs.path)'\necho 'Swift version 9.9 (shim)'\n")
        for script in ["toolchain/swift", "shim/swift"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.root.appendingPathComponent(script).path)
        }
        let environment = ["XDG_CACHE_HOME": scratch.root.appendingPathComponent("cache").path]
        let count = { (try? String(contentsOf: runs, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        let swift = scratch.root.appendingPathComponent("toolchain/swift").path

        #expect(try ToolchainVersion.of(swift: swift, environment: environment) == "Swift version 9.9")
        #expect(try ToolchainVersion.of(swift: swift, environment: environment) == "Swift version 9.9")
        #expect(count() == 1, "the second asks no process")
        try scratch.write("toolchain/swift-frontend", "another build\n")
        _ = try ToolchainVersion.of(swift: swift, environment: environment)
        #expect(count() == 2, "a compiler replaced in place is asked again")

        let shim = scratch.root.appendingPathComponent("shim/swift").path
        _ = try ToolchainVersion.of(swift: shim, environment: environment)
        _ = try ToolchainVersion.of(swift: shim, environment: environment)
        #expect(count() == 4, "a shim with no compiler beside it may pick another toolchain at every run")
        // swiftly links every name, swift-frontend too, to itself.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("shim/swift-frontend").path, withDestinationPath: "swift")
        _ = try ToolchainVersion.of(swift: shim, environment: environment)
        #expect(count() == 5, "a compiler that is a link is no toolchain of its own")

        // A damaged entry is asked again, never printed.
        let entries = try FileManager.default.contentsOfDirectory(
            at: scratch.root.appendingPathComponent("cache/componentctl/toolchains"), includingPropertiesForKeys: nil)
        for entry in entries { try Data("garbage\u{0}\u{1b}[31m\n".utf8).write(to: entry) }
        #expect(try ToolchainVersion.of(swift: swift, environment: environment) == "Swift version 9.9")
        #expect(count() == 6)
        #expect(ResultsCache.userCacheFolder(["HOME": ""]) == nil && ResultsCache.userCacheFolder(["HOME": "relative"]) == nil)
    }

    @Test func aSwiftThatPrintsNoVersionIsAnError() throws {
        let scratch = try Scratch()
        try scratch.write("swift", "#!/bin/sh\nexit 0\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.root.appendingPathComponent("swift").path)
        #expect(throws: ToolError.self) { try ToolchainVersion.of(swift: scratch.root.appendingPathComponent("swift").path, environment: [:]) }
    }

    @Test func lexicalPathsClimbAsTheFileSystemWould() {
        #expect(LexicalPath.resolve("../Core/./Cache/", from: "/w/Packages/Business") == "/w/Packages/Core/Cache")
        #expect(LexicalPath.resolve("/a//b/../c") == "/a/c")
        #expect(LexicalPath.resolve("../../..", from: "/a") == "/")
        #expect(LexicalPath.parts(of: "a/../../b", aboveTop: .fail) == nil)
        #expect(LexicalPath.parts(of: "a/./b/..", aboveTop: .fail) == ["a"])
    }

    @Test func backgroundWorkHandsOverItsErrorToEveryWaiter() throws {
        struct Failure: Error {}
        let work = Background<Int> { throw Failure() }
        #expect(throws: Failure.self) { try work.wait() }
        #expect(throws: Failure.self) { try work.wait() }
        #expect(try Background { 42 }.wait() == 42)
    }
}
