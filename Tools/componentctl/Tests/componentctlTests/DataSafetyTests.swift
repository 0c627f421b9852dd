import Foundation
import Testing
import TestSupport

/// componentctl never destroys what it did not make, and says clearly what is wrong, through the built
/// binary on a frozen fixture workspace.
@Suite struct DataSafetyTests {
    private func tool(_ scratch: Scratch, _ arguments: String..., environment: [String: String] = [:]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path], environment: environment)
    }

    /// The fixture with `feature` released as 1.1.0 (and 1.2.0 when asked) and pinned at 1.1.0.
    private func pinnedRepository(secondRelease: Bool = false) throws -> Scratch {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        if secondRelease { #expect(try tool(scratch, "release", "feature", "1.2.0").status == 0) }
        let pinned = try tool(scratch, "pin", "feature", "1.1.0")
        #expect(pinned.status == 0, "\(pinned.error)")
        return scratch
    }

    private func exists(_ scratch: Scratch, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent(path).path)
    }

    @Test func aLockEntryNamingALiveFolderOrOneOutsideIsRefusedAndNothingIsDeleted() throws {
        let scratch = try pinnedRepository(secondRelease: true)
        try scratch.write("Packages/Business/Feature/Sources/Feature/Unsaved.swift", "// not committed\n")
        let outside = try Scratch(named: "victim")
        try outside.write("Feature/keep.txt", "mine\n")
        let lock = try scratch.read("components.lock")
        for checkout in [
            "Packages/Business/Feature", "../../\(outside.root.lastPathComponent)/Feature", outside.root.path + "/Feature",
            "Packages/.pin-feature-9.9.9/Feature", "Packages/.pin-base-1.1.0/Base",
        ] {
            try scratch.write("components.lock", lock.replacingOccurrences(of: "Packages/.pin-feature-1.1.0/Feature", with: checkout))
            let state = try scratch.snapshot()
            for arguments in [["unpin", "feature"], ["pin", "feature", "1.2.0"], ["sync"]] {
                let result = try ToolProcess.run(arguments + ["--root", scratch.root.path])
                #expect(result.status == 2, "\(arguments) with \(checkout): \(result.error)")
                #expect(result.error.contains("components.lock: the entry for 'feature'"))
                #expect(result.error.contains("Nothing was changed."))
                #expect(try scratch.snapshot() == state)
            }
        }
        // The checkout's folder swapped for a link to a folder outside: not componentctl's, so not touched.
        try scratch.write("components.lock", lock)
        let pinFolder = scratch.root.appendingPathComponent("Packages/.pin-feature-1.1.0")
        try FileManager.default.removeItem(at: pinFolder)
        try FileManager.default.createSymbolicLink(at: pinFolder, withDestinationURL: outside.root)
        let linked = try tool(scratch, "unpin", "feature")
        #expect(linked.status == 2)
        #expect(linked.error.contains("was not made by componentctl"))
        #expect(exists(scratch, "Packages/Business/Feature/Sources/Feature/Unsaved.swift"))
        #expect(try outside.read("Feature/keep.txt") == "mine\n")
    }

    @Test func aPinFolderComponentctlDidNotMakeIsNeverRemoved() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        // In the way of the checkout pin wants to make: refused, kept.
        try scratch.write("Packages/.pin-feature-1.1.0/Feature/notes.txt", "mine\n")
        let state = try scratch.snapshot()
        let blocked = try tool(scratch, "pin", "feature", "1.1.0")
        #expect(blocked.status == 2)
        #expect(blocked.error.contains("'Packages/.pin-feature-1.1.0' is in the way of a pinned checkout, but componentctl did not make it"))
        #expect(try scratch.snapshot() == state)
        #expect(try scratch.read("Packages/.pin-feature-1.1.0/Feature/notes.txt") == "mine\n")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/.pin-feature-1.1.0"))

        // A stray `.pin-*` folder of the user's: sync reports it and leaves it.
        try scratch.write("Packages/.pin-mine/notes.txt", "mine\n")
        let synced = try tool(scratch, "sync")
        #expect(synced.status == 0)
        #expect(synced.error.contains("'Packages/.pin-mine' is named like a pinned checkout, but componentctl did not make it"))
        #expect(try scratch.read("Packages/.pin-mine/notes.txt") == "mine\n")

        // Its own stale checkout it does remove.
        #expect(try tool(scratch, "pin", "feature", "1.1.0").status == 0)
        try scratch.replace(in: "components.yaml", "    pin: 1.1.0\n", with: "")
        #expect(try tool(scratch, "sync").output.contains("remove the stale checkout Packages/.pin-feature-1.1.0"))
        #expect(!exists(scratch, "Packages/.pin-feature-1.1.0"))
        #expect(exists(scratch, "Packages/.pin-mine/notes.txt"))
    }

    @Test func anEditedCheckoutIsOutOfSyncAndSyncRepairsIt() throws {
        let scratch = try pinnedRepository()
        try scratch.write("Packages/.pin-feature-1.1.0/Feature/Sources/Feature/Feature.swift", "// edited\n")
        try scratch.write("Packages/.pin-feature-1.1.0/Feature/Extra.swift", "// added\n")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/.pin-feature-1.1.0/Feature/Package.swift"))
        let check = try tool(scratch, "sync", "--check")
        #expect(check.status == 1)
        #expect(check.output.contains("restore Packages/.pin-feature-1.1.0/Feature, edited (Extra.swift, Package.swift, Sources/Feature/Feature.swift)"))
        #expect(try tool(scratch, "sync").status == 0)
        #expect(try tool(scratch, "sync", "--check").status == 0)
        #expect(try scratch.read("Packages/.pin-feature-1.1.0/Feature/Sources/Feature/Feature.swift") == "import Base\n\npublic let feature = Base()\n")
        #expect(!exists(scratch, "Packages/.pin-feature-1.1.0/Feature/Extra.swift"))
    }

    @Test func linkedFilesAreWrittenThroughAndKeepTheirMode() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        let real = try Scratch(named: "real")
        let target = real.root.appendingPathComponent("components.yaml")
        try FileManager.default.moveItem(at: scratch.root.appendingPathComponent("components.yaml"), to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target.path)
        try FileManager.default.createSymbolicLink(at: scratch.root.appendingPathComponent("components.yaml"), withDestinationURL: target)
        let result = try tool(scratch, "pin", "feature", "1.1.0")
        #expect(result.status == 0, "\(result.error)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: scratch.root.appendingPathComponent("components.yaml").path)
        #expect(link == target.path)
        #expect(try real.read("components.yaml").contains("    pin: 1.1.0\n"))
        #expect(try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int == 0o640)
    }

    @Test func aKillBetweenATemporaryFileAndItsRenameLeavesNothingBehind() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        let listing = try scratch.listing(), state = try scratch.snapshot()
        let killed = try tool(scratch, "pin", "feature", "1.1.0", environment: ["COMPONENTCTL_FAULT": "temp"])
        #expect(killed.status != 0)
        #expect(try scratch.run("/usr/bin/find", [".componentctl/tmp", "-name", "*.tmp"]).contains(".tmp"))
        let recovered = try tool(scratch, "list")
        #expect(recovered.status == 0)
        #expect(recovered.error.contains("Rolled back an interrupted 'componentctl pin feature 1.1.0'"))
        #expect(try scratch.listing() == listing)
        #expect(try scratch.snapshot() == state)
        #expect(try scratch.git("status", "--porcelain").isEmpty)
    }

    @Test func aStaleTagLockIsNamedAndReadOnlyCommandsStillWork() throws {
        let scratch = try Scratch.miniRepository()
        let lock = scratch.root.appendingPathComponent(".git/refs/tags/feature@1.1.0.lock")
        try Data().write(to: lock)
        let head = try scratch.git("rev-parse", "HEAD"), state = try scratch.snapshot()
        let refused = try tool(scratch, "release", "feature", "1.1.0")
        #expect(refused.status == 3)
        #expect(refused.error.contains("rm '\(lock.path)'"))
        #expect(refused.error.contains("The change was rolled back; the workspace is as it was."))
        #expect(!refused.error.contains("failed to lock file"))
        #expect(try scratch.git("rev-parse", "HEAD") == head)
        #expect(try scratch.snapshot() == state)
        try FileManager.default.removeItem(at: lock)

        // A release killed after its tag was written, and the tag's lock file left as a kill inside git's write leaves it.
        _ = try tool(scratch, "release", "feature", "1.1.0", environment: ["COMPONENTCTL_FAULT": "tag"])
        try Data().write(to: lock)
        for arguments in [["list"], ["check-layers"], ["versions", "feature"], ["status"], ["graph"], ["why", "feature", "base"]] {
            let result = try ToolProcess.run(arguments + ["--root", scratch.root.path])
            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(result.error.contains("warning: An interrupted 'componentctl release feature 1.1.0' left its change half-done"))
            #expect(result.error.contains("rm '\(lock.path)'"))
        }
        let blocked = try tool(scratch, "pin", "feature", "1.1.0")
        #expect(blocked.status == 3)
        #expect(blocked.error.contains("rm '\(lock.path)'"))
        try FileManager.default.removeItem(at: lock)
        #expect(try tool(scratch, "list").error.contains("Rolled back an interrupted 'componentctl release feature 1.1.0'"))
        #expect(try scratch.git("rev-parse", "HEAD") == head)
        #expect(try scratch.git("tag", "-l").isEmpty)
        #expect(try scratch.snapshot() == state)
    }

    @Test func aFailedWriteIsReportedAsOneWithTheRollbacksOutcome() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        let manifest = scratch.root.appendingPathComponent("Package.swift").path
        // Root ignores permission bits; an immutable file is refused to root too (where the file system supports it).
        guard (try? scratch.run("/usr/bin/chattr", ["+i", manifest])) != nil else { return }
        defer { _ = try? scratch.run("/usr/bin/chattr", ["-i", manifest]) }
        let state = try scratch.snapshot(), listing = try scratch.listing()
        let result = try tool(scratch, "pin", "feature", "1.1.0")
        #expect(result.status == 3)
        #expect(result.error.contains("Cannot write '\(manifest)'"))
        #expect(result.error.contains("The change was rolled back; the workspace is as it was."))
        #expect(!result.error.contains("Cannot read"))
        #expect(try scratch.snapshot() == state)
        #expect(try scratch.listing() == listing)
    }

    @Test func malformedTagsAreSkippedWithAWarning() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        try scratch.git("tag", "feature@2.0.0", "HEAD^{tree}")
        try scratch.git("tag", "-a", "feature@notes", "-m", "notes")
        let versions = try tool(scratch, "versions", "feature")
        #expect(versions.status == 0)
        #expect(versions.output.contains("1.1.0"))
        #expect(versions.error.contains("skipped the tag 'feature@2.0.0': it names a tree, not a commit"))
        #expect(versions.error.contains("skipped the tag 'feature@notes': 'notes' is not a semantic version"))
        #expect(try tool(scratch, "pin", "feature", "1.1.0").status == 0)
    }

    @Test func aVersionWithoutItsBuildMetadataIsRefusedAndTheFullOneResolves() throws {
        let scratch = try Scratch.miniRepository()
        try scratch.git("tag", "-a", "feature@1.3.0+build.7", "-m", "with build metadata")
        let short = try tool(scratch, "pin", "feature", "1.3.0")
        #expect(short.status == 2)
        #expect(short.error.contains("Pin it by its full version: componentctl pin feature 1.3.0+build.7."))
        #expect(try tool(scratch, "pin", "feature", "1.3.0+build.7").status == 0)
        #expect(try tool(scratch, "sync", "--check").status == 0)
    }

    @Test func aFirstTimeUserAndAShallowCloneAreToldHowToGetTheRelease() throws {
        let scratch = try Scratch.miniRepository()
        let fresh = try tool(scratch, "pin", "feature", "1.4.0")
        #expect(fresh.status == 2)
        #expect(fresh.error.contains("To make that release from this commit: componentctl release feature 1.4.0."))
        #expect(fresh.error.contains("git fetch --tags"))
        #expect(try tool(scratch, "release", "feature", "1.4.0").status == 0)
        try scratch.write("later.txt", "a commit after the release, so a shallow clone of the branch has no release tag\n")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "later")

        let clone = try Scratch(named: "shallow")
        try clone.run("/usr/bin/git", ["clone", "-q", "--depth", "1", "file://\(scratch.root.path)", clone.root.appendingPathComponent("mini").path])
        let shallow = try ToolProcess.run(["pin", "feature", "1.4.0", "--root", clone.root.appendingPathComponent("mini").path])
        #expect(shallow.status == 2)
        #expect(shallow.error.contains("This is a shallow clone, which usually has no release tags: fetch them with 'git fetch --tags --unshallow'."))
    }

    @Test func anUnparsableManifestIsAnUnreadableManifestError() throws {
        let scratch = try Scratch.miniRepository()
        let path = "Packages/Business/Feature/Package.swift"
        let manifest = try scratch.read(path)
        let base = try #require(manifest.range(of: "Foundation/Base"))
        let cut = String(manifest[..<base.lowerBound])
        for (broken, place) in [
            (cut, "\(path):7:35:"), (manifest.replacingOccurrences(of: "name: \"Base\", package", with: "name: \"Base\" package"), "\(path):8:77:"),
        ] {
            try scratch.write(path, broken)
            let result = try tool(scratch, "check-layers")
            #expect(result.status == 1)
            #expect(result.output.contains("\(place) error: cannot read the manifest of 'feature'"), "\(result.output)")
            #expect(result.output.contains("[unreadable-manifest]"))
            #expect(!result.output.contains(": warning:"))
        }
    }

    @Test func everyRefusalHasTheDocumentedExitCode() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        let cases: [([String], Int32, String)] = [
            (["pin", "feature", "9.0.0"], 2, "has no release 9.0.0"),
            (["pin", "feature", "1.1"], 2, "is not a semantic version"),
            (["pin", "base", "1.0.0"], 2, "Cannot pin 'base': feature depends on it"),
            (["release", "feature", "1.1.0"], 2, "is released already"),
            (["release", "feature", "1.0.5"], 2, "must be greater than its last release, 1.1.0"),
            (["release", "featur", "2.0.0"], 2, "Did you mean 'feature'?"),
            (["unpin", "nothing"], 2, "Unknown component 'nothing'"),
        ]
        let state = try scratch.snapshot()
        for (arguments, status, message) in cases {
            let result = try ToolProcess.run(arguments + ["--root", scratch.root.path])
            #expect(result.status == status, "\(arguments): \(result.error)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
        try scratch.write("Packages/Business/Feature/Sources/Feature/Wip.swift", "// wip\n")
        let dirty = try tool(scratch, "release", "feature", "2.0.0")
        #expect(dirty.status == 3)
        #expect(dirty.error.contains("Packages/Business/Feature/Sources/Feature/Wip.swift"))
        #expect(try scratch.snapshot() == state)
    }

    @Test func newNeverScaffoldsOverAFolderItDidNotMake() throws {
        let scratch = try Scratch.miniRepository()
        try scratch.write("Packages/Core/Widget/notes.txt", "mine\n")
        let state = try scratch.snapshot(), listing = try scratch.listing()
        let refused = try tool(scratch, "new", "Widget", "--layer", "core")
        #expect(refused.status == 2)
        #expect(refused.error.contains("'Packages/Core/Widget' exists already"))
        #expect(try scratch.snapshot() == state)
        #expect(try scratch.listing() == listing)
        #expect(try scratch.read("Packages/Core/Widget/notes.txt") == "mine\n")
    }

    @Test func makeCleanRemovesOnlyBuildFoldersTheBuildMade() throws {
        let scratch = try Scratch.miniRepository()
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Scratch.sampleRoot.appendingPathComponent("scripts/clean.sh"),
            to: scratch.root.appendingPathComponent("scripts/clean.sh"))
        try scratch.write("Packages/Foundation/Base/.build/build.db", "")
        try scratch.write(".build/componentctl-logs/app.log", "")
        try scratch.write("Packages/Business/Feature/.build/notes.txt", "mine\n")
        let output = try scratch.run("/bin/bash", ["scripts/clean.sh"])
        #expect(output.contains("removed ./Packages/Foundation/Base/.build"))
        #expect(!exists(scratch, "Packages/Foundation/Base/.build"))
        #expect(!exists(scratch, ".build"))
        #expect(try scratch.read("Packages/Business/Feature/.build/notes.txt") == "mine\n")
    }

    @Test func aRollbackOfAReplacedCheckoutKeepsTheOriginal() throws {
        let scratch = try pinnedRepository()
        try scratch.write("Packages/.pin-feature-1.1.0/Feature/Mine.swift", "// the user's\n")
        let listing = try scratch.listing()
        _ = try tool(scratch, "sync", environment: ["COMPONENTCTL_FAULT": "journal"])
        #expect(try tool(scratch, "list").error.contains("Rolled back an interrupted 'componentctl sync'"))
        #expect(try scratch.read("Packages/.pin-feature-1.1.0/Feature/Mine.swift") == "// the user's\n")
        #expect(try scratch.listing() == listing)
    }

    @Test func aDanglingLinkIsWrittenThroughAndSurvivesARollback() throws {
        let scratch = try Scratch.miniRepository()
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        let store = try Scratch(named: "store")
        let target = store.root.appendingPathComponent("components.lock")
        let link = scratch.root.appendingPathComponent("components.lock")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let manifest = scratch.root.appendingPathComponent("Package.swift").path
        if (try? scratch.run("/usr/bin/chattr", ["+i", manifest])) != nil {
            #expect(try tool(scratch, "pin", "feature", "1.1.0").status == 3)
            _ = try? scratch.run("/usr/bin/chattr", ["-i", manifest])
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
        #expect(try tool(scratch, "pin", "feature", "1.1.0").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try store.read("components.lock").contains("\"checkout\" : \"Packages/.pin-feature-1.1.0/Feature\""))
    }

    @Test func aReleaseCommitsTheFileALinkedComponentsYamlNames() throws {
        let scratch = try Scratch.miniRepository()
        try scratch.git("mv", "components.yaml", "registry.yaml")
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("components.yaml").path, withDestinationPath: "registry.yaml")
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "linked registry")
        #expect(try tool(scratch, "release", "feature", "1.1.0").status == 0)
        #expect(try scratch.git("diff", "--name-only", "HEAD~1", "HEAD") == "registry.yaml\n")
        #expect(try scratch.git("show", "feature@1.1.0:registry.yaml").contains("    version: 1.1.0\n"))
        #expect(try scratch.git("status", "--porcelain").isEmpty)
    }

    @Test func untrustedOrOddInputIsRefusedWithExitTwo() throws {
        let scratch = try pinnedRepository()
        let lock = try scratch.read("components.lock")
        let commit = try #require(lock.split(separator: "\"").first { $0.count == 40 })
        let cases: [(String, [String], String)] = [
            (lock.replacingOccurrences(of: String(commit), with: String(repeating: "0", count: 40)), ["sync"], "which this repository does not have"),
            (lock.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7"), ["sync"], "is in format 7"),
            (
                lock.replacingOccurrences(of: "Packages/.pin-feature-1.1.0/Feature", with: "Packages/Business/Feature"),
                ["pin", "feature", "1.1.0", "--dry-run"],
                "components.lock: the entry for 'feature'"
            ),
        ]
        for (text, arguments, message) in cases {
            try scratch.write("components.lock", text)
            let result = try ToolProcess.run(arguments + ["--root", scratch.root.path])
            #expect(result.status == 2, "\(arguments): \(result.error)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
        try scratch.write("components.lock", lock)
        try scratch.git("tag", "feature@1.5.0", "HEAD^{tree}")
        let treeTag = try tool(scratch, "release", "feature", "1.5.0")
        #expect(treeTag.status == 2)
        #expect(treeTag.error.contains("The tag feature@1.5.0 exists already and names a tree"))
        try scratch.git("tag", "-d", "feature@1.5.0")
        try scratch.git("tag", "-d", "feature@1.1.0")
        let lower = try tool(scratch, "release", "feature", "1.0.5")
        #expect(lower.status == 2)
        #expect(lower.error.contains("components.yaml records version 1.1.0 of 'feature', its last release; 1.0.5 is lower."))
    }
}
