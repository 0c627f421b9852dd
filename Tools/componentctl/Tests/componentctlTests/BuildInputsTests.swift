import ComponentKit
import Foundation
import Testing
import TestSupport

/// Every input of a component's build is in its key and makes `affected` name it: packages reached through links,
/// submodules, the lock's versions, the workspace's declared inputs, generated folders and an app's own paths.
/// Each case changes one input in a commit and looks at both, through the binary.
@Suite struct BuildInputsTests {
    private func tool(_ scratch: Scratch, _ arguments: [String]) throws -> ToolProcess.Result {
        try ToolProcess.run(["--root", scratch.root.path] + arguments)
    }

    private func key(_ scratch: Scratch, _ name: String) throws -> String {
        let result = try tool(scratch, ["hash", name, "--format", "key"])
        #expect(result.status == 0, "\(result.error)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names `affected --base HEAD~1` reports, with their reasons.
    private func affected(_ scratch: Scratch) throws -> [String: String] {
        let result = try tool(scratch, ["affected", "--base", "HEAD~1", "--format", "json"])
        #expect(result.status == 0, "\(result.error)")
        struct Row: Decodable { var name: String; var reason: String }
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([Row].self, from: Data(result.output.utf8)).map { ($0.name, $0.reason) })
    }

    /// Makes shelf depend on the package at `path` (relative to its folder).
    private func shelfDepends(on path: String, _ scratch: Scratch) throws {
        try scratch.replace(
            in: "Packages/Business/Shelf/Package.swift", "        .package(path: \"../../Foundation/Kit\"),\n",
            with: "        .package(path: \"../../Foundation/Kit\"),\n        .package(path: \"\(path)\"),\n")
    }

    private func utilPackage(_ folder: String, _ scratch: Scratch, value: Int = 1) throws {
        try scratch.write("\(folder)/Package.swift", "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Util\")\n")
        try scratch.write("\(folder)/Sources/Util/Util.swift", "public let util = \(value)\n")
    }

    @Test func aChangeBelowALinkedPackageReachesItsDependents() throws {
        let scratch = try Scratch.fixtureRepository()
        try utilPackage("Shared/Util", scratch)
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("Packages/Links"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Packages/Links/Util").path, withDestinationPath: "../../Shared/Util")
        // A link to a component is an edge too.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Packages/Links/Values").path, withDestinationPath: "../Foundation/Values")
        try shelfDepends(on: "../../Links/Util", scratch)
        try shelfDepends(on: "../../Links/Values", scratch)
        try scratch.commitAll("shelf uses Util through a link")
        let before = try key(scratch, "shelf")
        #expect(try tool(scratch, ["hash", "shelf", "--explain"]).output.contains("link Packages/Links/Util -> ../../Shared/Util"))

        try utilPackage("Shared/Util", scratch, value: 2)
        try scratch.commitAll("Util changes")
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try key(scratch, "shelf") != before)

        try scratch.write("Packages/Foundation/Values/Sources/Values/Extra.swift", "public let extra = 1\n")
        try scratch.commitAll("values changes")
        #expect(try affected(scratch)["shelf"] == "dependent", "reached through the link to a component")

        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Links/Util"))
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("Packages/Links/Util").path, withDestinationPath: "/usr/lib")
        let outside = try tool(scratch, ["hash", "shelf"])
        #expect(outside.status == 2)
        #expect(outside.error.contains("outside the repository (or reached through a link out of it)"), "\(outside.error)")
    }

    @Test func aDependencyWrittenAsAnExpressionIsFollowedWhereSwiftPMSaysItLeads() throws {
        let scratch = try Scratch.fixtureRepository()
        try utilPackage("Shared/Util", scratch)
        try shelfDepends(on: "x", scratch)
        try scratch.replace(in: "Packages/Business/Shelf/Package.swift", ".package(path: \"x\")", with: ".package(path: \"../../../\" + \"Shared/Util\")")
        try scratch.commitAll("shelf names a package by an expression")
        let hashed = try tool(scratch, ["hash", "shelf", "--explain"])
        #expect(hashed.status == 0)
        #expect(!hashed.error.contains("unreadable") && !hashed.output.contains("unreadable"), "\(hashed.error)")
        #expect(hashed.output.contains("Shared/Util"), "the package the expression names is an input: \(hashed.output)")
        let jobs = try BuildPlanner.keyed(
            ["shelf", "reader"].map { BuildService.Job(name: $0, path: ".", arguments: []) }.map { job in
                var job = job
                job.path = try #require(scratch.load().component(named: job.name)).path
                return job
            }, in: VersionedWorkspace(scratch.load()),
            environment: KeyEnvironment(swift: "6", configuration: "debug", flags: [], platform: "test"))
        #expect(jobs.map { $0.key == nil } == [false, false], "both keys follow every input")

        try scratch.write("Shared/Util/Sources/Util/Util.swift", "public let util = 2\n")
        try scratch.commitAll("the package behind the expression changes")
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try affected(scratch)["reader"] == nil)

        // A version-specific manifest, which SwiftPM may read instead, is evaluated the same way.
        try scratch.write(
            "Packages/Business/Reader/Package@swift-6.0.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Reader\", dependencies: [.package(path: \"../\" + \"X\")])\n"
        )
        let reader = try tool(scratch, ["hash", "reader"])
        #expect(reader.status == 2)
        #expect(reader.error.contains("depends on the package at ../X (Packages/Business/X), which does not exist"), "\(reader.error)")
    }

    @Test func aManifestSwiftPMCannotEvaluateIsSaidAndNeverTrusted() throws {
        let scratch = try Scratch.fixtureRepository()
        let manifest = "Packages/Business/Shelf/Package.swift"
        try scratch.write(manifest, try scratch.read(manifest) + "\nfunc helper() -> Int { undefinedName }\n")
        try scratch.commitAll("shelf's manifest does not compile")
        let hashed = try tool(scratch, ["hash", "shelf", "--explain"])
        #expect(hashed.output.contains("unreadable Packages/Business/Shelf/Package.swift"), "\(hashed.output)")
        let jobs = try BuildPlanner.keyed(
            [BuildService.Job(name: "shelf", path: try #require(scratch.load().component(named: "shelf")).path, arguments: [])],
            in: VersionedWorkspace(scratch.load()), environment: KeyEnvironment(swift: "6", configuration: "debug", flags: [], platform: "test"))
        #expect(jobs.map { $0.key == nil } == [true], "shelf's result is never reused")
    }

    @Test func aPackageOnTheRootPackageIsSaidNeverTrustedAndAlwaysAffected() throws {
        let scratch = try Scratch.fixtureRepository()
        // As an Examples/ or Benchmarks/ package depends on the library at the top.
        try shelfDepends(on: "../../..", scratch)
        try scratch.commitAll("shelf depends on the root package")
        let hashed = try tool(scratch, ["hash", "shelf"])
        #expect(hashed.status == 0, "\(hashed.error)")
        #expect(hashed.error.contains("'shelf' depends on the repository's root package (../../..)"), "\(hashed.error)")
        let jobs = try BuildPlanner.keyed(
            [BuildService.Job(name: "shelf", path: try #require(scratch.load().component(named: "shelf")).path, arguments: [])],
            in: VersionedWorkspace(scratch.load()), environment: KeyEnvironment(swift: "6", configuration: "debug", flags: [], platform: "test"))
        #expect(jobs.map { $0.key == nil } == [true], "shelf's result is never reused")
        try scratch.write("Notes/anywhere.txt", "a file no package names\n")
        try scratch.commitAll("a change outside every package")
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try affected(scratch)["reader"] == nil)
    }

    @Test func aLinkInsideALinkedFolderIsFollowedToo() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("Shared/Deeper/Deep.swift", "public let deep = 1\n")
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("Shared/Kit"), withIntermediateDirectories: true)
        // shelf's sources link to Shared/Kit, whose file links on to Shared/Deeper: two hops out of the component.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Shared/Kit/Deep.swift").path, withDestinationPath: "../Deeper/Deep.swift")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Packages/Business/Shelf/Sources/Shelf/Kit").path, withDestinationPath: "../../../../../Shared/Kit")
        try scratch.commitAll("shelf reads a shared file through two links")
        let before = try key(scratch, "shelf")
        try scratch.write("Shared/Deeper/Deep.swift", "public let deep = 2\n")
        #expect(try key(scratch, "shelf") != before, "the file at the end of the second link changed")
        try scratch.commitAll("the deep file changes")
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try affected(scratch)["reader"] == nil)
    }

    @Test func aLinkNotYetCommittedIsFollowedAndDotDotClimbsFromWhereALinkLed() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("Shared/E/sub/keep.txt", "\n")
        try scratch.write("Shared/E/Z/z.swift", "public let z = 1\n")
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("Shared/A"), withIntermediateDirectories: true)
        // Deep/../Z is Shared/E/Z on disk (Deep leads to Shared/E/sub), though Shared/A/Z as text.
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("Shared/A/Deep").path, withDestinationPath: "../E/sub")
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("Shared/A/Z").path, withDestinationPath: "Deep/../Z")
        try scratch.commitAll("shared files behind links")
        // The link from shelf's sources is not committed yet: the build reads through it already.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Packages/Business/Shelf/Sources/Shelf/Shared").path, withDestinationPath: "../../../../../Shared/A")
        let linked = try key(scratch, "shelf")
        try scratch.write("Shared/E/Z/z.swift", "public let z = 2\n")
        let edited = try key(scratch, "shelf")
        #expect(edited != linked, "the file at the end of an uncommitted link changed")
        try scratch.commitAll("shelf links to the shared files")
        #expect(try key(scratch, "shelf") == edited, "committed as it was, the key stays")
        try scratch.write("Shared/E/Z/z.swift", "public let z = 3\n")
        try scratch.commitAll("z changes")
        #expect(try affected(scratch)["shelf"] == "changed")
    }

    @Test func aSubmoduleBumpChangesTheKeyAndAffectsWhatDependsOnIt() throws {
        let library = try Scratch(named: "Sub")
        try utilPackage(".", library)
        try library.commitAsNewRepository()
        let scratch = try Scratch.fixtureRepository()
        try scratch.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", library.root.path, "external/Sub")
        try shelfDepends(on: "../../../external/Sub", scratch)
        try scratch.commitAll("shelf uses a submodule")
        let before = try key(scratch, "shelf")
        #expect(try affected(scratch)["shelf"] == "changed")

        try utilPackage(".", library, value: 2)
        try library.commitAll("a new version")
        try scratch.run("/usr/bin/git", ["-C", "external/Sub", "pull", "-q", "origin", "HEAD"])
        let bumped = try key(scratch, "shelf")
        #expect(bumped != before, "the checked-out commit moved")
        // An edit inside the submodule, committed nowhere, is built too.
        try utilPackage(".", Scratch(root: scratch.root.appendingPathComponent("external/Sub")), value: 3)
        let edited = try key(scratch, "shelf")
        #expect(edited != bumped, "an uncommitted edit inside the submodule")
        #expect(try tool(scratch, ["hash", "shelf", "--explain"]).output.contains("edited"))
        try scratch.run("/usr/bin/git", ["-C", "external/Sub", "checkout", "-q", "--", "."])
        #expect(try key(scratch, "shelf") == bumped, "undone, back to the commit's key")
        try scratch.commitAll("bump the submodule")
        #expect(try key(scratch, "shelf") == bumped, "committed as it was, the key stays")
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try affected(scratch)["reader"] == nil, "a component that does not use it is not affected")

        // A clone without the submodule checked out says so, and keys by the recorded commit.
        let clone = try Scratch(named: "clone")
        try FileManager.default.removeItem(at: clone.root)
        try scratch.run("/usr/bin/git", ["clone", "-q", scratch.root.path, clone.root.path])
        let unchecked = try tool(clone, ["hash", "shelf"])
        #expect(unchecked.status == 0)
        #expect(unchecked.error.contains("the submodule external/Sub, which 'shelf' depends on, is not checked out"), "\(unchecked.error)")
        #expect(try tool(clone, ["hash", "shelf", "--explain"]).output.contains("(not checked out)"))
    }

    @Test func aSubmoduleInsideAComponentIsKeyedByTheCommitItHasCheckedOut() throws {
        let library = try Scratch(named: "Vendor")
        try utilPackage(".", library)
        try library.commitAsNewRepository()
        let scratch = try Scratch.fixtureRepository()
        try scratch.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", library.root.path, "Packages/Business/Shelf/Vendor")
        try scratch.commitAll("shelf vendors a submodule")
        let before = try key(scratch, "shelf")

        try utilPackage(".", library, value: 2)
        try library.commitAll("a new version")
        try scratch.run("/usr/bin/git", ["-C", "Packages/Business/Shelf/Vendor", "pull", "-q", "origin", "HEAD"])
        let moved = try key(scratch, "shelf")
        #expect(moved != before, "the submodule's checkout moved")
        try scratch.commitAll("bump the vendored submodule")
        #expect(try key(scratch, "shelf") == moved, "the key of the uncommitted move is the key of its commit")
        try utilPackage(".", Scratch(root: scratch.root.appendingPathComponent("Packages/Business/Shelf/Vendor")), value: 3)
        #expect(try key(scratch, "shelf") != moved, "an edit inside the submodule, committed nowhere, is compiled too")
    }

    @Test func theLockDecidesAnExternalPackagesVersion() throws {
        let scratch = try Scratch.fixture()
        try shelfDepends(on: "x", scratch)
        try scratch.replace(
            in: "Packages/Business/Shelf/Package.swift", ".package(path: \"x\"),",
            with: ".package(url: \"https://github.com/apple/swift-log.git\", from: \"1.0.0\"),")
        func lock(_ version: String) -> String {
            """
            {"pins": [{"identity": "swift-log", "kind": "remoteSourceControl", "location": "https://github.com/apple/swift-log.git",
              "state": {"revision": "\(version.replacingOccurrences(of: ".", with: ""))abc", "version": "\(version)"}}], "version": 2}
            """
        }
        try scratch.write("Package.resolved", lock("1.5.0"))
        try scratch.write(".gitignore", try scratch.read(".gitignore") + "Package.resolved\n")
        try scratch.commitAsNewRepository()
        // Untracked, the lock is this machine's only: the key follows the requirement.
        #expect(try tool(scratch, ["hash", "shelf", "--explain"]).output.contains("package swift-log https://github.com/apple/swift-log.git from: 1.0.0"))
        try scratch.git("add", "-f", "Package.resolved")
        try scratch.commitAll("the lock")
        let explained = try tool(scratch, ["hash", "shelf", "--explain"])
        #expect(explained.output.contains("resolved swift-log 1.5.0 150abc (Package.resolved)"), "\(explained.output)")
        #expect(!explained.output.contains("required by a range"), "a lock pins the version")
        let before = try key(scratch, "shelf")
        try scratch.write("Package.resolved", lock("1.6.0"))
        try scratch.git("add", "-f", "Package.resolved")
        try scratch.commitAll("a new swift-log")
        #expect(try key(scratch, "shelf") != before)
        let rows = try affected(scratch)
        #expect(rows["shelf"] == "changed")
        #expect(rows["reader"] == nil)
    }

    @Test func declaredInputsAndGeneratedFoldersAffectExactlyWhatDeclaresThem() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("Shared.xcconfig", "SWIFT_VERSION = 6\n")
        try scratch.write("api.yaml", "version: 1\n")
        try scratch.replace(in: "components.yaml", "  scheme: lib", with: "  inputs: [Shared.xcconfig]\n  scheme: lib")
        try scratch.write("components.yaml", try scratch.read("components.yaml") + "\ngenerated:\n  Generated/API: [api.yaml]\n")
        try utilPackage("Generated/API", scratch)
        try shelfDepends(on: "../../../Generated/API", scratch)
        try scratch.write(".gitignore", try scratch.read(".gitignore") + "Generated/\n")
        try scratch.commitAsNewRepository()
        let shelf = try key(scratch, "shelf"), values = try key(scratch, "values")

        try scratch.write("Shared.xcconfig", "SWIFT_VERSION = 6.1\n")
        try scratch.commitAll("a shared setting")
        #expect(try key(scratch, "values") != values, "every component reads a workspace input")
        #expect(try affected(scratch).keys.contains("values"))

        let beforeAPI = try key(scratch, "shelf")
        #expect(beforeAPI != shelf)
        try scratch.write("api.yaml", "version: 2\n")
        try scratch.commitAll("the API changes")
        #expect(try key(scratch, "shelf") != beforeAPI)
        let rows = try affected(scratch)
        #expect(rows["shelf"] == "changed")
        #expect(rows["values"] == nil)

        // Undeclared and not ignored, a folder no clone has is refused by both.
        try scratch.replace(in: "components.yaml", "\ngenerated:\n  Generated/API: [api.yaml]\n", with: "\n")
        try scratch.write(".gitignore", ".build/\n")
        for arguments in [["hash", "shelf"], ["affected", "--base", "HEAD~1"]] {
            let refused = try tool(scratch, arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.error.contains("which git does not track, so a clone would not have it"), "\(refused.error)")
        }
    }

    @Test func pathsAreReadInEverySpellingAndEveryManifestSwiftPMMayRead() throws {
        let scratch = try Scratch.fixture()
        try scratch.replace(in: "components.yaml", "path: Packages/Foundation/Values", with: "path: ./Packages//Foundation/Values/")
        try scratch.write("Shared.xcconfig", "A = 1\n")
        try scratch.replace(in: "components.yaml", "  scheme: lib", with: "  inputs: [./Shared.xcconfig]\n  scheme: lib")
        // A dependency only the version-specific manifest names.
        try utilPackage("Vendor/A", scratch)
        try scratch.write(
            "Packages/Foundation/Values/Package@swift-6.0.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Values\", dependencies: [.package(path: \"../../../Vendor/A\")])\n"
        )
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, ["hash", "values", "--explain"]).output.contains("path Vendor/A "))
        let before = try key(scratch, "values")
        try utilPackage("Vendor/A", scratch, value: 2)
        try scratch.commitAll("Vendor/A changes")
        #expect(try affected(scratch)["values"] == "changed")
        #expect(try key(scratch, "values") != before)
        try scratch.write("Shared.xcconfig", "A = 2\n")
        try scratch.commitAll("a shared setting")
        #expect(try affected(scratch)["values"] == "changed")

        for bad in ["[.]", "[.git/HEAD]", "[]"] {
            try scratch.replace(in: "components.yaml", "  inputs: [./Shared.xcconfig]", with: "  inputs: \(bad)")
            let refused = try tool(scratch, ["affected", "--base", "HEAD~1"])
            #expect(refused.status == 2, "\(bad): \(refused.error)")
            try scratch.replace(in: "components.yaml", "  inputs: \(bad)", with: "  inputs: [./Shared.xcconfig]")
        }
    }

    @Test func everyPinOfTheLockCountsForAComponentWithExternalPackages() throws {
        let scratch = try Scratch.fixture()
        try shelfDepends(on: "x", scratch)
        try scratch.replace(
            in: "Packages/Business/Shelf/Package.swift", ".package(path: \"x\"),",
            with: ".package(url: \"https://github.com/Moya/Moya.git\", from: \"15.0.0\"),")
        func lock(_ alamofire: String) -> String {
            """
            {"pins": [{"identity": "moya", "location": "https://github.com/Moya/Moya.git", "state": {"revision": "a", "version": "15.0.0"}},
              {"identity": "alamofire", "location": "https://github.com/Alamofire/Alamofire.git", "state": {"revision": "b", "version": "\(alamofire)"}}],
             "version": 2}
            """
        }
        try scratch.write("Package.resolved", lock("5.8.0"))
        try scratch.commitAsNewRepository()
        try scratch.git("add", "-f", "Package.resolved")
        try scratch.commitAll("the lock")
        let before = try key(scratch, "shelf")
        try scratch.write("Package.resolved", lock("5.9.0"))
        try scratch.git("add", "-f", "Package.resolved")
        try scratch.commitAll("Alamofire, which Moya depends on, moves")
        #expect(try key(scratch, "shelf") != before)
        #expect(try affected(scratch)["shelf"] == "changed")
        #expect(try affected(scratch)["reader"] == nil)
    }

    @Test func withoutDeclaredPathsTheAppIsWhatLiesOutsideTheComponents() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write("App/Sources/App/main.swift", "print(\"changed\")\n")
        try scratch.commitAll("the app changes")
        #expect(try affected(scratch) == ["app": "changed"])
    }

    @Test func aChangeToAnAppsOwnPathAffectsTheAppAlone() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("MyApp.xcodeproj/project.pbxproj", "1\n")
        try scratch.write(
            "components.yaml",
            try scratch.read("components.yaml") + "\napps:\n  reading:\n    product: Reading\n    components: [shelf, reader]\n    paths: [MyApp.xcodeproj]\n")
        try scratch.commitAsNewRepository()
        try scratch.write("MyApp.xcodeproj/project.pbxproj", "2\n")
        try scratch.commitAll("the Xcode project changes")
        #expect(try affected(scratch) == ["reading": "changed"])
        try scratch.write("README.md", "notes\n")
        try scratch.commitAll("a file of no app")
        #expect(try affected(scratch).isEmpty)
    }

    @Test func eachAppIsAffectedByItsOwnPathsAndByTheComponentsItLinksNotByAnothersAndTestedAlone() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("Reading.xcodeproj/project.pbxproj", "1\n")
        try scratch.write("Shelves/Info.plist", "1\n")
        try scratch.write(
            "components.yaml",
            try scratch.read("components.yaml")
                + "\napps:\n  reading:\n    product: Reading\n    components: [reader]\n    paths: [Reading.xcodeproj]\n"
                + "  shelves:\n    product: Shelves\n    components: [shelf]\n    paths: [Shelves]\n")
        try scratch.commitAsNewRepository()
        try scratch.write("Shelves/Info.plist", "2\n")
        try scratch.commitAll("a file of the shelves app")
        #expect(try affected(scratch) == ["shelves": "changed"])
        try scratch.write("Packages/Business/Reader/Sources/Reader/More.swift", "// more\n")
        try scratch.commitAll("reader, which only the reading app links, changes")
        #expect(try affected(scratch) == ["reader": "changed", "reading": "dependent"])
        // test --affected runs the component alone and the app it reaches, not every app.
        let service = BuildService(root: scratch.root, action: .test, configuration: "debug", sharedScratch: false, swift: "/usr/bin/false")
        let plan = try BuildPlanner.plan(BuildSelection(affectedBase: "HEAD~1"), in: try scratch.load(), service: service)
        #expect(plan.jobs.map(\.name) == ["reader", "app reading"])
        #expect(plan.jobs.last?.environment["COMPONENTCTL_APP"] == "reading")
    }
}
