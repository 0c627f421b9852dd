import Foundation
import Testing
import TestSupport

/// Releases and pins on real temporary git repositories, through the built binary.
@Suite struct ReleaseAndPinTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    /// A repository where `reader` has releases 1.0.1 and 1.1.0, with a change committed after 1.1.0.
    private func releasedRepository() throws -> Scratch {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, "release", "reader", "1.0.1").status == 0)
        try scratch.write("Packages/Business/Reader/run-demo.sh", "#!/bin/sh\nswift run ReaderDemo\n")
        try scratch.run("/bin/chmod", ["755", scratch.root.appendingPathComponent("Packages/Business/Reader/run-demo.sh").path])
        try scratch.run("/bin/ln", ["-s", "Sources/Reader", scratch.root.appendingPathComponent("Packages/Business/Reader/source-link").path])
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "scripts")
        #expect(try tool(scratch, "release", "reader", "1.1.0", "-m", "Hello").status == 0)
        try scratch.replace(in: "Packages/Business/Reader/Sources/Reader/ReaderModule.swift", "Reading book", with: "Now reading book")
        try scratch.git("commit", "-qam", "live change")
        return scratch
    }

    @Test func releaseCommitsTheVersionAndTagsThatCommit() throws {
        let scratch = try Scratch.fixtureRepository()
        let before = try scratch.read("components.yaml")
        let head = try scratch.git("rev-parse", "HEAD")
        let result = try tool(scratch, "release", "reader", "1.2.0", "-m", "Better sign-in")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("git push origin"))
        #expect(try scratch.git("cat-file", "-t", "reader@1.2.0") == "tag\n")
        #expect(try scratch.git("tag", "-l", "-n1", "reader@1.2.0").contains("Better sign-in"))
        // The tag names a new commit on the branch, whose only change is the version line, and the tree is clean.
        #expect(try scratch.git("rev-parse", "reader@1.2.0^{commit}") == (try scratch.git("rev-parse", "HEAD")))
        #expect(try scratch.git("rev-parse", "HEAD~1") == head)
        #expect(try scratch.git("diff", "--name-only", "HEAD~1", "HEAD") == "components.yaml\n")
        #expect(try scratch.git("show", "reader@1.2.0:components.yaml") == (try scratch.read("components.yaml")))
        #expect(try scratch.git("status", "--porcelain").isEmpty)
        #expect(
            try scratch.read("components.yaml")
                == before.replacingOccurrences(
                    of: "    path: Packages/Business/Reader\n    layer: business\n    interface: reader-interface\n    version: 1.0.0",
                    with: "    path: Packages/Business/Reader\n    layer: business\n    interface: reader-interface\n    version: 1.2.0"))
    }

    @Test func releaseRefusals() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, "release", "reader", "1.2.0").status == 0)
        let state = try scratch.snapshot()

        let older = try tool(scratch, "release", "reader", "1.1.9")
        #expect(older.status == 2)
        #expect(older.error == "error: Version 1.1.9 of 'reader' must be greater than its last release, 1.2.0.\n")
        #expect(try tool(scratch, "release", "reader", "1.2").status == 2)
        let unknown = try tool(scratch, "release", "readr", "2.0.0")
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("Unknown component 'readr'. Did you mean 'reader'?"))
        try scratch.write("Packages/Business/Reader/Sources/Reader/New.swift", "// wip\n")
        let dirty = try tool(scratch, "release", "reader", "2.0.0")
        #expect(dirty.status == 3)
        #expect(dirty.error.contains("Packages/Business/Reader/Sources/Reader/New.swift"))
        #expect(try scratch.snapshot() == state)
    }

    @Test func versionsAreNewestFirstAndFoundByExactPrefix() throws {
        let scratch = try Scratch.fixtureRepository()
        for tag in ["reader@1.0.0", "reader@1.10.0", "reader@1.2.0", "reader@2.0.0-beta.1", "readers@9.0.0", "reader@1.5.0/extra", "reader@notes"] {
            try scratch.git("tag", "-a", tag, "-m", tag)
        }
        let result = try tool(scratch, "versions", "reader", "--format", "json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]])
        #expect(rows.map { $0["version"] } == ["2.0.0-beta.1", "1.10.0", "1.2.0", "1.0.0"])
        #expect(rows.first?["commit"] == (try scratch.git("rev-parse", "HEAD").trimmingCharacters(in: .newlines)))
        #expect(try tool(scratch, "versions", "shelf").output.contains("'shelf' has no release in this clone"))
    }

    @Test func pinMaterializesExactlyWhatGitArchiveHolds() throws {
        let scratch = try releasedRepository()
        let manifestBefore = try scratch.read("Package.swift")
        let result = try tool(scratch, "pin", "reader", "1.1.0")
        #expect(result.status == 0, "\(result.error)")
        #expect(try scratch.git("status", "--porcelain", "Packages/Business/Reader").isEmpty)

        let archive = try Scratch(named: "archive")
        try archive.run(
            "/bin/sh",
            ["-c", "git -C '\(scratch.root.path)' archive reader@1.1.0 Packages/Business/Reader | tar -x --no-same-permissions -C '\(archive.root.path)'"])
        let diff = try archive.run(
            "/bin/sh",
            [
                "-c",
                "diff -r --no-dereference '\(archive.root.path)/Packages/Business/Reader' '\(scratch.root.path)/Packages/.pin-reader-1.1.0/Reader' && echo same",
            ])
        #expect(diff == "same\n")
        let modes = "find . -printf '%p %M %l\\n' | sort"
        let expected = try archive.run("/bin/sh", ["-c", "cd Packages/Business/Reader && \(modes)"])
        let actual = try scratch.run("/bin/sh", ["-c", "cd Packages/.pin-reader-1.1.0/Reader && \(modes)"])
        #expect(actual == expected)
        #expect(actual.contains("./run-demo.sh -rwxr-xr-x"))
        #expect(actual.contains("./source-link lrwxrwxrwx Sources/Reader"))

        #expect(
            try scratch.read("Package.swift")
                == manifestBefore.replacingOccurrences(
                    of: ".package(path: \"Packages/Business/Reader\")", with: ".package(path: \"Packages/.pin-reader-1.1.0/Reader\")"))
        #expect(try scratch.read("components.yaml").contains("    version: 1.1.0\n    pin: 1.1.0\n"))
        #expect(try scratch.read("components.lock").contains("\"checkout\" : \"Packages/.pin-reader-1.1.0/Reader\""))
        #expect(try tool(scratch, "sync", "--check").status == 0)
    }

    @Test func unpinRestoresTheFilesByteForByte() throws {
        let scratch = try releasedRepository()
        let yaml = try scratch.read("components.yaml"), manifest = try scratch.read("Package.swift")
        #expect(try tool(scratch, "pin", "reader", "1.0.1").status == 0)
        #expect(try tool(scratch, "pin", "reader", "1.1.0").status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("Packages/.pin-reader-1.0.1").path))
        #expect(try tool(scratch, "unpin", "reader").status == 0)
        #expect(try scratch.read("components.yaml") == yaml)
        #expect(try scratch.read("Package.swift") == manifest)
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("Packages/.pin-reader-1.1.0").path))
        #expect(try tool(scratch, "unpin", "reader").output.contains("is not pinned"))
    }

    @Test func pinRefusalsChangeNothing() throws {
        let scratch = try releasedRepository()
        try scratch.git("tag", "-a", "values@1.0.0", "-m", "x")
        let state = try scratch.snapshot()

        let unknown = try tool(scratch, "pin", "reader", "1.4.0")
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("'reader' has no release 1.4.0 in this clone (no tag reader@1.4.0). Released here: 1.1.0, 1.0.1."))
        #expect(unknown.error.contains("componentctl release reader 1.4.0"))

        let shared = try tool(scratch, "pin", "values", "1.0.0")
        #expect(shared.status == 2)
        #expect(shared.error.contains("cache, catalog, reader, reader-interface, shelf depend on it"))

        // An implementation's version number is what a release can go by (an interface's API is compared
        // instead: APIDiffTests).
        try scratch.replace(
            in: "components.yaml", "    path: Packages/Foundation/Values\n    layer: foundation\n    version: 1.0.0",
            with: "    path: Packages/Foundation/Values\n    layer: foundation\n    version: 2.0.0")
        let incompatible = try tool(scratch, "pin", "reader", "1.1.0")
        #expect(incompatible.status == 2)
        #expect(incompatible.error.contains("reader@1.1.0 was built against values 1.0.0; the workspace has 2.0.0, which is not compatible"))
        try scratch.git("checkout", "components.yaml")
        #expect(try tool(scratch, "pin", "reader", "1.1", "--dry-run").status == 2)
        #expect(try tool(scratch, "pin", "reader", "1.1.0", "--dry-run").output.hasPrefix("Would pin reader 1.1.0"))
        #expect(try scratch.snapshot() == state)
    }

    @Test func syncRematerializesAndCatchesAMovedTag() throws {
        let scratch = try releasedRepository()
        #expect(try tool(scratch, "pin", "reader", "1.1.0").status == 0)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/.pin-reader-1.1.0"))
        let stale = try tool(scratch, "sync", "--check")
        #expect(stale.status == 1)
        #expect(stale.output.contains("materialize reader@1.1.0 at Packages/.pin-reader-1.1.0/Reader"))
        #expect(try tool(scratch, "sync").status == 0)
        #expect(try tool(scratch, "sync", "--check").status == 0)

        try scratch.git("tag", "-f", "-a", "reader@1.1.0", "-m", "moved", "HEAD")
        let state = try scratch.snapshot()
        let moved = try tool(scratch, "sync")
        #expect(moved.status == 3)
        #expect(moved.error.contains("the tag was moved"))
        #expect(try scratch.snapshot() == state)
    }

    @Test func gitProblemsAreClearErrors() throws {
        let plain = try Scratch.fixture()
        let notRepository = try ToolProcess.run(["versions", "reader", "--root", plain.root.path])
        #expect(notRepository.status == 3)
        #expect(notRepository.error.contains("is not in a git repository"))

        let scratch = try Scratch.fixtureRepository()
        try scratch.run("/bin/chown", ["-R", "65534:65534", scratch.root.path])
        let foreign = try tool(scratch, "versions", "reader")
        #expect(foreign.status == 3)
        #expect(foreign.error.contains("belongs to user id 65534, not to you"))
        #expect(foreign.error.contains("safe.directory"))
    }

    @Test func aSecondRunWaitsForNobody() throws {
        let scratch = try releasedRepository()
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent(".componentctl"), withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [scratch.root.appendingPathComponent(".componentctl/lock").path, "sleep", "5"]
        try holder.run()
        defer { holder.terminate() }
        usleep(300_000)
        let blocked = try tool(scratch, "pin", "reader", "1.1.0")
        #expect(blocked.status == 3)
        #expect(blocked.error.contains("Another componentctl is changing this workspace"))
    }
}
