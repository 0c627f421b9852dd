import ComponentKit
import Foundation
import Testing
import TestSupport

/// Component keys change exactly when an ingredient of the recipe does, and an uncommitted change gives the
/// key its commit will have.
@Suite struct ComponentKeysTests {
    static let environment = KeyEnvironment(swift: "Swift version 6.3.1", configuration: "debug", flags: [], platform: "linux debian 12 x86_64")

    private func keys(_ scratch: Scratch, environment: KeyEnvironment = Self.environment) throws -> [String: ComponentKey] {
        let context = try VersionedWorkspace(try scratch.load())
        let keys = try HashService.keys(context, names: [], apps: [], environment: Background { environment })
        return Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })
    }

    private func key(_ scratch: Scratch, _ name: String, environment: KeyEnvironment = Self.environment) throws -> String {
        try #require(try keys(scratch, environment: environment)[name]).key
    }

    @Test func eachIngredientChangesTheKeyAndAnUnrelatedFileDoesNot() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.declareApps("  shelf-only:\n    components: [shelf]\n")
        try scratch.commitAll("an app")
        let before = try keys(scratch)
        let shelf = try #require(before["shelf"]).key

        // Its own tree, uncommitted.
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Note.swift", "let note = 1\n")
        #expect(try key(scratch, "shelf") != shelf)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Business/Shelf/Sources/Shelf/Note.swift"))
        #expect(try key(scratch, "shelf") == shelf, "back as committed, back to its key")

        // Something it depends on, two levels down (shelf -> catalog -> cache).
        try scratch.write("Packages/Core/Cache/Sources/Cache/Note.swift", "let note = 1\n")
        let afterCache = try keys(scratch)
        #expect(afterCache["cache"]?.key != before["cache"]?.key)
        #expect(afterCache["catalog"]?.key != before["catalog"]?.key)
        #expect(afterCache["shelf"]?.key != shelf)
        #expect(afterCache["reader"]?.key == before["reader"]?.key, "reader does not depend on cache")
        #expect(afterCache["shelf"]?.uncommitted == true && afterCache["reader"]?.uncommitted == false)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Core/Cache/Sources/Cache/Note.swift"))

        // A file of no component: the components' keys stay, the app's changes.
        try scratch.write("NOTES.md", "notes\n")
        let afterNotes = try keys(scratch)
        #expect(afterNotes.filter { !$0.key.hasPrefix("app ") }.mapValues(\.key) == before.filter { !$0.key.hasPrefix("app ") }.mapValues(\.key))
        #expect(afterNotes["app shelf-only"]?.key != before["app shelf-only"]?.key)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("NOTES.md"))
        #expect(try keys(scratch)["app shelf-only"]?.key == before["app shelf-only"]?.key)

        // An external package, and its version.
        let manifest = "Packages/Business/Shelf/Package.swift"
        try scratch.replace(
            in: manifest, "        .package(path: \"../../Foundation/Kit\"),\n",
            with: "        .package(path: \"../../Foundation/Kit\"),\n        .package(url: \"https://github.com/apple/swift-log\", exact: \"1.16.2\"),\n")
        let withLog = try key(scratch, "shelf")
        #expect(withLog != shelf)
        try scratch.replace(in: manifest, "exact: \"1.16.2\"", with: "exact: \"1.16.3\"")
        #expect(try key(scratch, "shelf") != withLog)
        try scratch.replace(in: manifest, "exact: \"1.16.3\"", with: "from: \"1.16.0\"")
        #expect(try keys(scratch)["shelf"]?.inexact == ["swift-log"], "a range is flagged: the key follows the requirement only")
        try scratch.git("checkout", "--", manifest)

        // The toolchain, the configuration, the flags, the platform.
        var environment = Self.environment
        environment.swift = "Swift version 6.3.2"
        #expect(try key(scratch, "shelf", environment: environment) != shelf)
        environment = Self.environment
        environment.configuration = "release"
        #expect(try key(scratch, "shelf", environment: environment) != shelf)
        environment = Self.environment
        environment.flags = ["-Xswiftc", "-warnings-as-errors"]
        #expect(try key(scratch, "shelf", environment: environment) != shelf)
        environment = Self.environment
        environment.platform = "linux ubuntu 24.04 x86_64"
        #expect(try key(scratch, "shelf", environment: environment) != shelf)
        #expect(try key(scratch, "shelf") == shelf)
    }

    @Test func anUncommittedChangeHasTheKeyItsCommitWillHave() throws {
        let scratch = try Scratch.fixtureRepository()
        let folder = "Packages/Business/Reader"
        try scratch.write("\(folder)/Sources/Reader/New.swift", "let new = 1\n")
        try scratch.write("\(folder)/Sources/Reader/Nested/Deeper/File.swift", "let deeper = 1\n")
        try scratch.replace(in: "\(folder)/Sources/Reader/ReaderModule.swift", "opens books", with: "opens books for reading")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("\(folder)/Tests/ReaderTests/ReaderTests.swift"))
        try scratch.write("\(folder)/run.sh", "#!/bin/sh\n")
        try scratch.run("/bin/chmod", ["755", scratch.root.appendingPathComponent("\(folder)/run.sh").path])
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("\(folder)/Link.md").path, withDestinationPath: "Package.swift")
        // Ignored files are no part of it.
        try scratch.write("\(folder)/.build/debug/leftover.o", "binary")
        let uncommitted = try #require(try keys(scratch)["reader"])
        #expect(uncommitted.uncommitted)

        try scratch.commitAll("the change")
        let committed = try #require(try keys(scratch)["reader"])
        #expect(!committed.uncommitted)
        #expect(committed.key == uncommitted.key)
        #expect(committed.recipe.contains("tree \(try scratch.git("rev-parse", "HEAD:\(folder)").trimmingCharacters(in: .whitespacesAndNewlines))"))
    }

    /// Where attributes convert what `git add` stores (here CRLF line ends to LF), an uncommitted file is hashed through
    /// them; where nothing can, as its bytes are. Either way its key is its commit's.
    @Test(arguments: ["no attributes", "tracked .gitattributes", "new .gitattributes", "ignored .gitattributes", "info/attributes", "core.autocrlf"])
    func anUncommittedFileIsHashedAsGitWillStoreIt(attributes: String) throws {
        let scratch = try Scratch.fixtureRepository()
        let folder = "Packages/Business/Reader"
        switch attributes {
        case "tracked .gitattributes":
            try scratch.write(".gitattributes", "*.swift text eol=lf\n")
            try scratch.commitAll("attributes")
        case "new .gitattributes": try scratch.write("\(folder)/.gitattributes", "*.swift text eol=lf\n")
        case "ignored .gitattributes":
            try scratch.write("\(folder)/Sources/.gitattributes", "*.swift text eol=lf\n")
            try scratch.write("\(folder)/Sources/.gitignore", ".gitattributes\n")
        case "info/attributes": try scratch.write(".git/info/attributes", "*.swift text eol=lf\n")
        case "core.autocrlf": try scratch.git("config", "core.autocrlf", "input")
        default: break
        }
        try scratch.write("\(folder)/Sources/Reader/New.swift", "let new = 1\r\nlet more = 2\r\n")
        let uncommitted = try #require(try keys(scratch)["reader"])
        try scratch.commitAll("the change")
        #expect(try keys(scratch)["reader"]?.key == uncommitted.key)
        let stored = try scratch.git("cat-file", "-p", "HEAD:\(folder)/Sources/Reader/New.swift")
        #expect(stored.contains("\r") == (attributes == "no attributes"), "the case converts line ends, or not")
    }

    /// Two spellings of `é` are two files to git (and to the file system): a key with one of them new is its commit's.
    @Test func twoSpellingsOfANameAreTwoFilesOfTheKey() throws {
        let scratch = try Scratch.fixtureRepository()
        let folder = "Packages/Business/Reader/Sources/Reader"
        try scratch.write("\(folder)/caf\u{E9}.swift", "let composed = 1\n")
        try scratch.commitAll("composed")
        try scratch.write("\(folder)/cafe\u{301}.swift", "let decomposed = 2\n")
        let uncommitted = try #require(try keys(scratch)["reader"])
        try scratch.commitAll("decomposed")
        #expect(try keys(scratch)["reader"]?.key == uncommitted.key)
    }

    /// A new file whose name is no UTF-8 cannot be reached by a string path: the key refuses it rather than leave it out.
    @Test func aFileNamedInBytesThatAreNoUTF8IsRefusedNotLeftOut() throws {
        let scratch = try Scratch.fixtureRepository()
        let path = (Array(scratch.root.path.utf8) + Array("/Packages/Business/Reader/bad".utf8) + [0xff]).map { CChar(bitPattern: $0) } + [0]
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)
        #expect {
            try keys(scratch)
        } throws: { error in
            (error as? ToolError)?.message.contains("is not UTF-8") == true
        }
    }

    @Test func aPackageByPathThatIsNoComponentIsKeyedByItsTree() throws {
        let scratch = try Scratch.fixtureRepository()
        let shelf = try key(scratch, "shelf")
        try scratch.write("Packages/Shared/Util/Package.swift", "// swift-tools-version: 6.0\n")
        try scratch.write("Packages/Shared/Util/Sources/Util/Util.swift", "public let util = 1\n")
        let manifest = "Packages/Business/Shelf/Package.swift"
        try scratch.replace(
            in: manifest, "        .package(path: \"../../Foundation/Kit\"),\n",
            with: "        .package(path: \"../../Foundation/Kit\"),\n        .package(path: \"../../Shared/Util\"),\n")
        // Untracked, it is refused: a clone would not have it.
        let untracked = try VersionedWorkspace(try scratch.load())
        #expect(throws: ToolError.self) { try HashService.keys(untracked, names: ["shelf"], apps: [], environment: Background { Self.environment }) }
        try scratch.git("add", "Packages/Shared")
        let withUtil = try #require(try keys(scratch)["shelf"])
        #expect(withUtil.key != shelf)
        #expect(withUtil.recipe.contains { $0.hasPrefix("path Packages/Shared/Util ") })
        #expect(!withUtil.recipe.contains { $0.hasPrefix("path Packages/Foundation/Kit") }, "a component is keyed by its key, not its tree")

        try scratch.write("Packages/Shared/Util/Sources/Util/Util.swift", "public let util = 2\n")
        let edited = try key(scratch, "shelf")
        #expect(edited != withUtil.key)

        // What that package depends on by path counts too.
        try scratch.write(
            "Packages/Shared/Util/Package.swift",
            "// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"Util\", dependencies: [.package(path: \"../Inner\")])\n")
        try scratch.write("Packages/Shared/Inner/Sources/Inner/Inner.swift", "public let inner = 1\n")
        try scratch.git("add", "Packages/Shared")
        let withInner = try #require(try keys(scratch)["shelf"])
        #expect(withInner.recipe.contains { $0.hasPrefix("path Packages/Shared/Inner ") })
        try scratch.write("Packages/Shared/Inner/Sources/Inner/Inner.swift", "public let inner = 2\n")
        #expect(try key(scratch, "shelf") != withInner.key)

        try scratch.replace(in: manifest, "../../Shared/Util", with: "/srv/elsewhere/Util")
        let context = try VersionedWorkspace(try scratch.load())
        #expect(throws: ToolError.self) { try HashService.keys(context, names: ["shelf"], apps: [], environment: Background { Self.environment }) }
    }

    @Test func componentctlsOwnFolderIsNoChangeEvenWhenGitDoesNotIgnoreIt() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write(".gitignore", ".build/\n")
        try scratch.commitAll("no ignore rule for .componentctl")
        let before = try keys(scratch).mapValues(\.key)
        try scratch.write(".componentctl/lock", "")
        try scratch.write("Packages/Business/Shelf/.componentctl/lock", "")
        let after = try keys(scratch)
        #expect(after.mapValues(\.key) == before)
        #expect(after.values.allSatisfy { !$0.uncommitted })
    }

    @Test func theRecipeNamesEveryIngredientAndNoPathOfThisMachine() throws {
        let scratch = try Scratch.fixtureRepository()
        let shelf = try #require(try keys(scratch)["shelf"])
        #expect(shelf.recipe.first == "componentctl key 1")
        #expect(shelf.recipe.contains { $0.hasPrefix("tree ") })
        #expect(shelf.recipe.contains { $0.hasPrefix("depends catalog ") })
        #expect(shelf.recipe.suffix(4) == ["swift Swift version 6.3.1", "configuration debug", "flags none", "platform linux debian 12 x86_64"])
        #expect(!shelf.recipe.joined().contains(scratch.root.path))
        #expect(!shelf.recipe.joined().contains(NSUserName()))
    }
}
