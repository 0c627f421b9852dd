import ComponentKit
import Foundation
import Testing
import TestSupport

/// `componentctl create` through the binary: a new workspace holds the framework and a starter feature, none of
/// the sample, and a refused or failed run leaves no folder behind and the source as it was.
@Suite struct CreateCommandTests {
    /// The fixture with a framework that does not use its top layer, a sample folder, a guide with a passage
    /// about the sample, and an ignored file, committed.
    private func template() throws -> Scratch {
        let scratch = try Scratch.fixture()
        try scratch.write("App/main.swift", "print(\"Library\")\n")
        try scratch.write("Tests/AppTests/AppTests.swift", "import Testing\n\n@Test func theAppBuilds() {}\n")
        try scratch.replace(
            in: "Package.swift", #".testTarget(name: "AppTests", dependencies: [.product(name: "Shelf", package: "Shelf")])"#,
            with: #".testTarget(name: "AppTests")"#)
        try scratch.replace(in: "components.yaml", "  scheme: lib ", with: "  sample: [Samples]\n  scheme: lib ")
        try scratch.write("Samples/tour.txt", "A tour of the shelf.\n")
        try scratch.write("docs/guide.md", "# Guide\n\nFor every workspace.\n<!-- sample -->\nThe shelf shows books.\n<!-- /sample -->\nThe end.\n")
        // As the template's own: build folders and componentctl's state folder are git's to ignore.
        try scratch.write(".gitignore", ".build/\n.componentctl/\n*.log\n")
        try scratch.write("debug.log", "ignored\n")
        try scratch.commitAsNewRepository()
        return scratch
    }

    /// A new folder beside `scratch`'s root, for the created workspace.
    private func target(beside scratch: Scratch, _ name: String = "Notes") -> URL {
        scratch.root.deletingLastPathComponent().appendingPathComponent(name)
    }

    private func entries(beside scratch: Scratch) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.root.deletingLastPathComponent().path).sorted()
    }

    @Test func theNewWorkspaceHasTheFrameworkAndAStarterFeatureAndNoneOfTheSample() throws {
        let scratch = try template()
        let before = try scratch.listing()
        let folder = target(beside: scratch)
        let result = try ToolProcess.run(["create", folder.path, "--name", "Notes", "--scheme", "notes", "--feature", "Start", "--root", scratch.root.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Created the workspace Notes in \(folder.path)"), "\(result.output)")

        let created = try WorkspaceLoader.load(root: folder)
        #expect(created.name == "Notes" && created.scheme == "notes" && created.sample.isEmpty)
        #expect(created.components.filter { $0.layer == "business" }.map(\.name).sorted() == ["start", "start-interface"])
        let kept = try Scratch(root: scratch.root).load().components.filter { $0.layer != "business" }.map(\.name)
        #expect(Set(kept).isSubset(of: created.components.map(\.name)))
        let copy = Scratch(root: folder)
        for gone in ["Packages/Business/Shelf", "Packages/Interfaces/ReaderInterface", "Samples", "debug.log"] {
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(gone).path), "\(gone)")
        }
        #expect(try copy.read("docs/guide.md") == "# Guide\n\nFor every workspace.\nThe end.\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path), "a repository of its own")
        #expect(try ToolProcess.run(["check-layers", "--root", folder.path]).status == 0)
        #expect(try ToolProcess.run(["sync", "--check", "--root", folder.path]).status == 0)
        #expect(try scratch.listing() == before, "the template is as it was")
        #expect(try entries(beside: scratch) == ["Notes", "library"], "no folder left beside it")
    }

    @Test func theBaselineLosesTheEntriesOfTheSampleAndXcodeAppsLeftOutGoToo() throws {
        let scratch = try template()
        // A finding in the sample, accepted by the baseline, and an Xcode app whose project is the sample's.
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Extra.swift", "import Values\n")
        try scratch.write("Samples/Library.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{}\n")
        try scratch.write(
            "components.yaml",
            try scratch.read("components.yaml")
                + "\nchecks:\n  baseline: componentctl-baseline.json\n\n# The Xcode app.\nxcode-apps:\n  Library:\n    project: Samples/Library.xcodeproj\n    components: [shelf]\n"
        )
        let baseline = scratch.root.appendingPathComponent("componentctl-baseline.json").path
        #expect(try ToolProcess.run(["check-layers", "--write-baseline", baseline, "--root", scratch.root.path]).status == 0)
        let accepted = try ToolProcess.run(["check-layers", "--root", scratch.root.path])
        #expect(accepted.status == 0, "\(accepted.output)\(accepted.error)")
        try scratch.commitAll("a baseline and an Xcode app")
        let folder = target(beside: scratch)
        let result = try ToolProcess.run(["create", folder.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(result.status == 0, "\(result.error)")
        let checked = try ToolProcess.run(["check-layers", "--root", folder.path])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        #expect(try !Scratch(root: folder).read("components.yaml").contains("xcode-apps"))
        #expect(try !Scratch(root: folder).read("componentctl-baseline.json").contains("Shelf"))
    }

    @Test func linksArePipesTrackedIgnoredFilesAndInnerRepositoriesAreHandledAsGitSeesThem() throws {
        let scratch = try template()
        let outside = scratch.root.deletingLastPathComponent().appendingPathComponent("shared.md")
        let guide = "# Shared\n<!-- sample -->\nabout the sample\n<!-- /sample -->\n"
        try Data(guide.utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("docs/shared.md").path, withDestinationPath: "../../shared.md")
        try scratch.write("docs/windows.md", "Kept.\r\n<!-- sample -->\r\nGone.\r\n<!-- /sample -->\r\n")
        try scratch.write("Package.resolved", "{}\n")
        try scratch.write(".gitignore", ".build/\n.componentctl/\n*.log\nPackage.resolved\n")
        try scratch.git("add", "-f", "Package.resolved", ".gitignore", "docs")
        try scratch.commitAll("a link, CRLF, a forced file")
        try scratch.write("Vendor/Inner/README.md", "inner\n")
        try scratch.run("/usr/bin/git", ["-C", "Vendor/Inner", "init", "-q"])
        #expect(mkfifo(scratch.root.appendingPathComponent("pipe").path, 0o600) == 0)
        let folder = target(beside: scratch)
        let result = try ToolProcess.run(["create", folder.path, "--name", "MyHTTPApp", "--feature", "Start", "--root", scratch.root.path], timeout: 60)
        #expect(result.status == 0, "\(result.error)")
        #expect(try String(contentsOf: outside, encoding: .utf8) == guide, "a link's target outside is not written through")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("docs/shared.md").path) == "../../shared.md")
        #expect(try Scratch(root: folder).read("docs/windows.md") == "Kept.\r\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.resolved").path), "tracked, though ignored")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Vendor/Inner").path))
        #expect(result.error.contains("note: Vendor/Inner is a repository of its own"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pipe").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Packages/Business/Reader").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Packages/Interfaces").path) == ["StartInterface"])
        #expect(try WorkspaceLoader.load(root: folder).name == "MyHTTPApp")
    }

    @Test func aMarkerLeftOpenOrNamesThatCannotBuildAreRefusedBeforeAnythingIsMade() throws {
        let scratch = try template()
        let folder = target(beside: scratch)
        for (arguments, message) in [
            (["--name", "Foundation"], "--name Foundation would name the app's product after a module of the toolchain"),
            (["--name", "Routing"], "a target of component 'routing'"),
            (["--name", "Notes", "--scheme", "https"], "--scheme 'https' belongs to the web"),
            (["--name", "N" + String(repeating: "o", count: 70)], "use at most 64"),
            (["--name", "Notes", "--feature", "Kit"], "--feature Kit would make the module Kit, which is a target of component 'kit'"),
        ] {
            let result = try ToolProcess.run(["create", folder.path] + arguments + ["--root", scratch.root.path])
            #expect(result.status == 2 && result.error.contains(message), "\(arguments): \(result.error)")
        }
        try scratch.write("docs/open.md", "Kept.\n<!-- sample -->\nthe rest\n")
        let open = try ToolProcess.run(["create", folder.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(open.status == 2 && open.error.contains("docs/open.md:2: '<!-- sample -->' is never closed"), "\(open.error)")
        #expect(try entries(beside: scratch) == ["library"])
    }

    @Test func aFolderInTheWayOrABadNameIsRefusedAndNothingIsMade() throws {
        let scratch = try template()
        let taken = target(beside: scratch, "Taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: false)
        try Data("mine\n".utf8).write(to: taken.appendingPathComponent("notes.txt"))
        let cases: [(arguments: [String], message: String)] = [
            ([taken.path, "--name", "Notes"], "'\(taken.path)' is not empty"),
            ([scratch.root.appendingPathComponent("Notes").path, "--name", "Notes"], "is inside the workspace Library"),
            ([target(beside: scratch).path, "--name", "notes"], "--name 'notes' is no workspace name"),
            ([target(beside: scratch).path, "--name", "Notes", "--scheme", "No Scheme"], "--scheme 'No Scheme' is no URL scheme"),
            ([target(beside: scratch).appendingPathComponent("deeper/Notes").path, "--name", "Notes"], "does not exist: make it first"),
            ([target(beside: scratch).path, "--name", "Notes", "--feature", "home"], "'home' is not a component name"),
        ]
        for (arguments, message) in cases {
            let result = try ToolProcess.run(["create"] + arguments + ["--root", scratch.root.path])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
        #expect(try String(contentsOf: taken.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine\n")
        #expect(try entries(beside: scratch) == ["Taken", "library"])
    }

    @Test func aFolderGitIgnoresInsideTheWorkspaceMayHoldTheNewOne() throws {
        let scratch = try template()
        let folder = scratch.root.appendingPathComponent(".build/checks/Notes")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try ToolProcess.run(["create", folder.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".build").path), "the workspace's own builds are not copied")
        let status = try scratch.git("status", "--porcelain")
        #expect(status.isEmpty, "\(status)")
    }

    @Test func aFailureHalfwayLeavesNoFolderAndAnEmptyTargetAsItWas() throws {
        let scratch = try template()
        let empty = target(beside: scratch, "Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        // The starter feature would take the name of a component the framework keeps: refused after the copy.
        let clash = try ToolProcess.run(["create", empty.path, "--name", "Notes", "--feature", "Catalog", "--root", scratch.root.path])
        #expect(clash.status == 2, "\(clash.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
        #expect(try entries(beside: scratch) == ["Empty", "library"])

        // A framework file that imports the sample: the workspace without it would not build.
        try scratch.write("App/main.swift", "import Shelf\n")
        try scratch.commitAll("the App uses the shelf")
        let uses = try ToolProcess.run(["create", empty.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(uses.status == 2)
        #expect(uses.error.contains("The framework still uses the sample") && uses.error.contains("App/main.swift:1: import Shelf"), "\(uses.error)")
        #expect(try entries(beside: scratch) == ["Empty", "library"])

        let made = try ToolProcess.run(["create", empty.path, "--name", "Notes", "--root", scratch.root.path, "--feature", "Start"])
        #expect(made.status == 2, "still refused: the App imports the shelf")
        try scratch.write("App/main.swift", "print(\"Library\")\n")
        try scratch.commitAll("the App alone")
        // What a killed run left in the folder (its process gone) goes at the next run; a running one's stays.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        try FileManager.default.createDirectory(
            at: empty.appendingPathComponent(".componentctl-create-\(ended.processIdentifier)/half"), withIntermediateDirectories: true)
        let busy = target(beside: scratch, "Busy")
        try FileManager.default.createDirectory(
            at: busy.appendingPathComponent(".componentctl-create-\(ProcessInfo.processInfo.processIdentifier)"), withIntermediateDirectories: true)
        #expect(try ToolProcess.run(["create", busy.path, "--name", "Notes", "--root", scratch.root.path]).error.contains("is not empty"))
        let placed = try ToolProcess.run(["create", empty.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(placed.status == 0, "an empty folder is filled: \(placed.error)")
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("components.yaml").path))
        #expect(try entries(beside: scratch) == ["Busy", "Empty", "library"])
        #expect(try !FileManager.default.contentsOfDirectory(atPath: empty.path).contains { $0.hasPrefix(".componentctl-create-") })
    }

    /// What must hold for any workspace made from this one (the tool never asserts what its components are):
    /// the new one passes check-layers and `sync --check`, and has one app, named after it, opening its starter.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COMPONENTCTL_BUILD_TESTS"] == "1"))
    func createFromTheLiveWorkspaceGivesOneThatChecksAndSyncs() throws {
        let scratch = try Scratch.sampleRepository()
        let folder = target(beside: scratch)
        let result = try ToolProcess.run(["create", folder.path, "--name", "Notes", "--root", scratch.root.path])
        #expect(result.status == 0, "\(result.error)")
        let checked = try ToolProcess.run(["check-layers", "--root", folder.path])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        #expect(try ToolProcess.run(["sync", "--check", "--root", folder.path]).status == 0)
        let created = try WorkspaceLoader.load(root: folder)
        if try !Scratch(root: scratch.root).load().apps.isEmpty {
            #expect(created.apps.map(\.name) == ["notes"] && created.apps.first?.product == "Notes")
            #expect(created.apps.first?.componentNames == ["home"])
        }
        #expect(created.start == nil || created.start == "notes://home")
    }
}
