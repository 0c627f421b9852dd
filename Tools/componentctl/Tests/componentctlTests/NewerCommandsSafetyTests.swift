import ComponentKit
import Foundation
import PluginFeed
import Testing
import TestSupport

/// The newer commands (`cached`, `plugin`, `sign`, `remove`, `api-diff`, `release` with apps, `sync` of generated
/// files) held to the standard of the oldest: bad input is refused naming the value and changes no file, nothing the
/// tool did not make is deleted, and generated files change only when what they mean changes. Through the binary.
@Suite struct NewerCommandsSafetyTests {
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-outside-\(UUID().uuidString)")

    private func tool(_ scratch: Scratch, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Result {
        try ToolProcess.run(["--root", scratch.root.path] + arguments, environment: environment)
    }

    @Test func cachedRefusesAnInputThatIsMistypedAbsentOutsideOrAbsolute() throws {
        let scratch = try Scratch.fixtureRepository()
        let cache = outside.appendingPathComponent("cache")
        try scratch.write("ignored.key", "secret\n")
        try scratch.write(".gitignore", try scratch.read(".gitignore") + "*.key\n")
        let before = try scratch.everyFile()
        for input in ["Packages/Busines/Shelf", "../outside", "/etc", "Packages/../../x", "", ".git", ".git/config", "ignored.key"] {
            let result = try tool(scratch, ["cached", "step", "--input", input, "--cache", cache.path, "--", "/bin/true"])
            #expect(result.status == 2, "\(input): \(result.error)")
            #expect(result.error.contains("--input '\(input)'"), "\(result.error)")
            #expect(result.error.contains("relative to its root"))
        }
        let outsidePackage = try Scratch(named: "OutsidePackage")
        try outsidePackage.write("Package.swift", "// swift-tools-version: 6.0\n")
        for package in ["../../\(outsidePackage.root.deletingLastPathComponent().lastPathComponent)/OutsidePackage", outsidePackage.root.path] {
            let result = try tool(scratch, ["cached", "step", "--package", package, "--cache", cache.path, "--", "/bin/true"])
            #expect(result.status == 2, "\(package): \(result.error)")
            #expect(result.error.contains("--package '\(package)' is"), "\(result.error)")
        }
        #expect(try scratch.everyFile() == before)
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("ac").path), "no pass was recorded")
        let good = try tool(scratch, ["cached", "step", "--input", "./Packages/Business/Shelf/", "--cache", cache.path, "--", "/bin/true"])
        #expect(good.status == 0, "\(good.error)")
    }

    @Test func cachedFollowsAnInputThatIsALinkToWhereItLeads() throws {
        let scratch = try Scratch.fixture()
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("cache-link").path, withDestinationPath: "Packages/Core/Cache")
        try scratch.commitAsNewRepository()
        let cache = outside.appendingPathComponent("cache")
        let step = ["cached", "step", "--input", "cache-link", "--cache", cache.path, "--", "/bin/echo", "ran"]
        #expect(try tool(scratch, step).output == "ran\n")
        #expect(try tool(scratch, step).output.contains("cached"))
        try scratch.write("Packages/Core/Cache/Sources/Cache/More.swift", "public let more = 1\n")
        try scratch.commitAll("the link's target changes")
        #expect(try tool(scratch, step).output == "ran\n", "a change where the link leads runs the step again")
    }

    @Test func keygenRefusesAPlaceInsideARepositoryAndNeverWritesTheKeyReadable() throws {
        let scratch = try Scratch.fixtureRepository()
        let before = try scratch.everyFile()
        for place in ["signing", "keys/deep/plugin.pem"] {
            let inside = try ToolProcess.run(["plugin", "keygen", "--key", scratch.root.appendingPathComponent(place).path])
            #expect(inside.status == 2)
            #expect(inside.error.contains("is inside the git repository \(scratch.root.path)"), "\(inside.error)")
        }
        #expect(try scratch.everyFile() == before)
        // Through a link that leads into the repository.
        let link = outside.appendingPathComponent("linked.key")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: scratch.root.appendingPathComponent("secret").path)
        let linked = try ToolProcess.run(["plugin", "keygen", "--key", link.path])
        #expect(linked.status == 2)
        #expect(linked.error.contains("(a link to \(scratch.root.appendingPathComponent("secret").path)) is inside the git repository"), "\(linked.error)")
        // In a repository git itself refuses to open (another user's).
        let foreign = try Scratch(named: "foreign")
        try foreign.git("init", "-q")
        _ = try foreign.run("/bin/chown", ["-R", "nobody", foreign.root.path])
        let owned = try ToolProcess.run(["plugin", "keygen", "--key", foreign.root.appendingPathComponent("k.key").path])
        #expect(owned.status == 2, "\(owned.error)")
        #expect(try scratch.everyFile() == before)

        // Every mode the key's file ever has is 0600: strace sees each open and chmod of it.
        let key = outside.appendingPathComponent("keys/signing.key")
        let trace = outside.appendingPathComponent("trace")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let traced = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-qq", "-e", "trace=openat,chmod,fchmod,fchmodat", "-o", trace.path, try ToolProcess.binary().path, "plugin", "keygen", "--key", key.path])
        #expect(traced.status == 0, "\(traced.errorText)")
        let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("signing.key") || $0.contains("fchmod(") }
        #expect(!calls.isEmpty)
        #expect(calls.allSatisfy { !$0.contains("0644") && !$0.contains("0666") }, "\(calls)")
        #expect((try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func removeDeletesWhatSwiftPMMakesAndStillRefusesTheUsersFiles() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["new", "Reader2", "--layer", "core"]).status == 0)
        try scratch.commitAll("reader2")
        try scratch.write("Packages/Core/Reader2/Package.resolved", "{}\n")
        try scratch.write("Packages/Core/Reader2/.swiftpm/configuration/registries.json", "{}\n")
        try scratch.write("Packages/Core/Reader2/.build/debug/x.o", "object\n")
        try scratch.write("Packages/Core/Reader2/notes.txt", "mine\n")
        let before = try scratch.everyFile()
        let refused = try tool(scratch, ["remove", "reader2"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("Packages/Core/Reader2/notes.txt"))
        #expect(!refused.error.contains("Package.resolved") && !refused.error.contains(".swiftpm"), "\(refused.error)")
        #expect(try scratch.everyFile() == before)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Core/Reader2/notes.txt"))
        let removed = try tool(scratch, ["remove", "reader2"])
        #expect(removed.status == 0, "\(removed.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("Packages/Core/Reader2").path))
    }

    @Test func aReleaseCommitPassesSyncCheckAndACommentChangesNoGeneratedFile() throws {
        let scratch = try Scratch.pluginFixtureRepository()
        #expect(try tool(scratch, ["sync"]).status == 0)
        try scratch.commitAll("wiring")
        let released = try tool(scratch, ["release", "ribbon", "1.1.0"])
        #expect(released.status == 0, "\(released.error)")
        #expect(try scratch.git("status", "--porcelain").isEmpty, "the release committed what it changed")
        #expect(try scratch.git("show", "--stat", "--format=", "ribbon@1.1.0").contains("GeneratedApp.swift"))
        let check = try tool(scratch, ["sync", "--check"])
        #expect(check.status == 0, "\(check.output)")

        try scratch.replace(in: "components.yaml", "components:\n", with: "# A comment moves every line below it.\n\ncomponents:\n")
        #expect(try tool(scratch, ["sync", "--check"]).status == 0)
    }

    @Test func packAndAPIDiffNeverDeleteAFolderOfTheirNameThatTheyDidNotMake() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addRuntimePlugin("Glitter", source: "func wire(_ router: Router) throws { try router.register(\"app://glitter/:name\") { _ in nil } }\n")
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, ["release", "glitter", "1.0.0"]).status == 0)
        let key = outside.appendingPathComponent("k.key")
        #expect(try ToolProcess.run(["plugin", "keygen", "--key", key.path]).status == 0)
        try scratch.write("Packages/.pack-glitter-1.0.0/mine.txt", "mine\n")
        let before = try scratch.everyFile()
        let pack = try tool(scratch, ["plugin", "pack", "glitter", "1.0.0", "--key", key.path])
        #expect(pack.status == 2)
        #expect(pack.error.contains("'Packages/.pack-glitter-1.0.0' is in the way"), "\(pack.error)")
        #expect(try scratch.everyFile() == before)
    }

    @Test func apiDiffMatchesAVersionExactlyAndAnUnknownOneIsAUsageError() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["release", "shelf-interface", "1.0.0"]).status == 0)
        for version in ["1.0.0+build.7", "9.9.9"] {
            let result = try tool(scratch, ["api-diff", "shelf-interface", "--from", version])
            #expect(result.status == 2, "\(version): \(result.error)")
            #expect(result.error.contains("'shelf-interface' has no release \(version)"))
        }
    }

    @Test func syncDropsAForeignLineInTheGeneratedBlockAndCheckFailsOnIt() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["sync", "--check"]).status == 0)
        let foreign = "    .package(url: \"https://example.com/evil.git\", from: \"1.0.0\"),\n"
        let manifest = try scratch.read("Package.swift")
        let anchor = try #require(manifest.range(of: "    .package(path: \"Packages/"))
        try scratch.write("Package.swift", manifest.replacingCharacters(in: anchor.lowerBound..<anchor.lowerBound, with: foreign))
        let check = try tool(scratch, ["sync", "--check"])
        #expect(check.status == 1)
        #expect(check.output.contains(".package(url: \"https://example.com/evil.git\", from: \"1.0.0\"),"), "\(check.output)")
        #expect(try tool(scratch, ["sync"]).status == 0)
        #expect(try scratch.read("Package.swift") == manifest)

        // Junk on a component's own line, and a line twice: the component stays, written once, as componentctl writes it.
        let reader = "    .package(path: \"Packages/Business/Reader\"),\n"
        try scratch.write(
            "Package.swift",
            manifest.replacingOccurrences(
                of: reader, with: "    .package(path: \"Packages/Business/Reader\"), .package(url: \"https://example.com/x\", from: \"1.0.0\"),\n" + reader))
        #expect(try tool(scratch, ["sync", "--check"]).status == 1)
        #expect(try tool(scratch, ["sync"]).status == 0)
        #expect(try scratch.read("Package.swift") == manifest)
    }

    @Test func publishAndSignCheckEveryFileBeforeWritingAny() throws {
        let key = PluginSigningKey()
        let keyFile = outside.appendingPathComponent("k.key")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(key.fileContents.utf8).write(to: keyFile)
        let good = try archive("1.0.0", key: key)
        let feed = outside.appendingPathComponent("feed")
        let publish = try ToolProcess.run([
            "plugin", "publish", good.path, outside.appendingPathComponent("missing.tar").path, "--feed", feed.path, "--key", keyFile.path,
        ])
        #expect(publish.status == 2)
        #expect(publish.error.contains("missing.tar") && publish.error.contains("nothing was published"), "\(publish.error)")
        #expect(!FileManager.default.fileExists(atPath: feed.appendingPathComponent("index.json").path))

        let layout = outside.appendingPathComponent("layout.json")
        try Data("{\"sequence\": 1}".utf8).write(to: layout)
        let sign = try ToolProcess.run(["sign", layout.path, outside.appendingPathComponent("nope.json").path, "--key", keyFile.path])
        #expect(sign.status == 2)
        #expect(sign.error.contains("nope.json does not exist; nothing was signed"), "\(sign.error)")
        #expect(!FileManager.default.fileExists(atPath: layout.path + ".sig"))
        let other = outside.appendingPathComponent("other.json")
        try Data("{}".utf8).write(to: other)
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("other.json.sig"), withIntermediateDirectories: true)
        let blocked = try ToolProcess.run(["sign", layout.path, other.path, "--key", keyFile.path])
        #expect(blocked.status == 2)
        #expect(blocked.error.contains("other.json.sig cannot be written (it is a folder); nothing was signed"), "\(blocked.error)")
        #expect(!FileManager.default.fileExists(atPath: layout.path + ".sig"))
    }

    /// A message case: how to break a copy of the fixture, the command, its exit status and what it must say.
    struct MessageCase: Sendable, CustomTestStringConvertible {
        var name: String
        var edit: @Sendable (Scratch) throws -> Void
        var arguments: [String]
        var status: Int32
        var says: String
        var mustNotSay: String? = nil
        var testDescription: String { name }
    }

    static let messages: [MessageCase] = [
        MessageCase(
            name: "a wrong path is the problem, not the name",
            edit: { try $0.replace(in: "components.yaml", "path: Packages/Core/Cache", with: "path: Packages/Core/Cach") },
            arguments: ["check-layers"], status: 2, says: "path 'Packages/Core/Cach' of 'cache' does not exist", mustNotSay: "rename the key"),
        MessageCase(
            name: "a missing END marker is named", edit: { try $0.replace(in: "Package.swift", "// END componentctl: components\n", with: "") },
            arguments: ["sync", "--check"], status: 2, says: "has a '// BEGIN componentctl: components' line but no '// END componentctl: components' line"),
        MessageCase(
            name: "an unknown layer is reported once", edit: { try $0.replace(in: "components.yaml", "    layer: core\n", with: "    layer: cor\n") },
            arguments: ["check-layers"], status: 2, says: "unknown layer 'cor' for component 'catalog'. Fix: use 'core'", mustNotSay: "but it is in 'cor'"),
        MessageCase(
            name: "a tab says tab", edit: { try $0.replace(in: "components.yaml", "  name: Library", with: "\tname: Library") }, arguments: ["list"],
            status: 2, says: "line 4 is indented with a tab, and YAML indents with spaces only"),
        MessageCase(
            name: "components.yaml that is a folder says so",
            edit: { scratch in
                try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("components.yaml"))
                try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("components.yaml"), withIntermediateDirectories: false)
            }, arguments: ["list"], status: 2, says: "it is a folder, not a file"),
        MessageCase(
            name: "a read-only components.yaml is not replaced", edit: { chmod($0.root.appendingPathComponent("components.yaml").path, 0o444) },
            arguments: ["release", "shelf", "1.1.0"], status: 2, says: "'components.yaml' is read-only (mode 444)"),
        MessageCase(
            name: "an image reference that is none is refused",
            edit: { try $0.replace(in: "components.yaml", "  scheme: lib", with: "  ci-image: \"swift:6 ${{ secrets.TOKEN }}\"\n  scheme: lib") },
            arguments: ["ci", "github"], status: 2, says: "workspace.ci-image 'swift:6 ${{ secrets.TOKEN }}' is no container image reference"),
        MessageCase(
            name: "explain with another format is refused", edit: { _ in }, arguments: ["hash", "--format", "key", "--explain"], status: 2,
            says: "--explain prints the recipes in the text format"),
        MessageCase(
            name: "a repeated --app is named", edit: { _ in }, arguments: ["new", "Tiny", "--layer", "business", "--app", "shelf-app", "--app", "shelf-app"],
            status: 2, says: "--app shelf-app is given twice"),
        MessageCase(
            name: "a generated line edited by hand is dropped by sync, not refused",
            edit: { try $0.replace(in: "Package.swift", ".package(path: \"Packages/Business/Shelf\")", with: ".package(path: \"Packages/Business/Shelf2\")") },
            arguments: ["sync", "--check"], status: 1, says: "rewrite or drop the lines of Package.swift's generated block that componentctl did not write"),
    ]

    @Test(arguments: messages)
    func aBadInputGetsAMessageNamingItAndTheFixAndChangesNothing(_ message: MessageCase) throws {
        let scratch = try Scratch.fixtureRepository()
        try message.edit(scratch)
        let before = try scratch.everyFile()
        let result = try tool(scratch, message.arguments)
        #expect(result.status == message.status, "\(result.output)\(result.error)")
        #expect((result.output + result.error).contains(message.says), "\(result.output)\(result.error)")
        if let wrong = message.mustNotSay { #expect(!(result.output + result.error).contains(wrong)) }
        #expect(try scratch.everyFile() == before)
    }

    @Test func aLineComponentctlAddsToACRLFFileEndsInCRLF() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("components.yaml", try scratch.read("components.yaml").replacingOccurrences(of: "\n", with: "\r\n"))
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, ["release", "shelf", "1.1.0"]).status == 0)
        #expect(try tool(scratch, ["pin", "shelf", "1.1.0"]).status == 0)
        let text = try scratch.read("components.yaml")
        #expect(text.contains("    pin: 1.1.0\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
    }

    @Test func verifyCallsAMissingIndexSignatureAFailedCheck() throws {
        let key = PluginSigningKey()
        let keyFile = outside.appendingPathComponent("k.key")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(key.fileContents.utf8).write(to: keyFile)
        let feed = outside.appendingPathComponent("feed")
        #expect(try ToolProcess.run(["plugin", "publish", try archive("1.0.0", key: key).path, "--feed", feed.path, "--key", keyFile.path]).status == 0)
        try FileManager.default.removeItem(at: feed.appendingPathComponent("index.sig"))
        let verify = try ToolProcess.run(["plugin", "verify", feed.path, "--key", keyFile.path])
        #expect(verify.status == 1)
        #expect(verify.error.contains("has no index.sig beside it"))
    }

    @Test func theDefaultSigningKeyFollowsHome() throws {
        let home = outside.appendingPathComponent("home")
        let made = try ToolProcess.run(["plugin", "keygen"], environment: ["HOME": home.path, "COMPONENTCTL_PLUGIN_KEY": ""])
        #expect(made.status == 0, "\(made.error)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/componentctl/plugin-signing.key").path))
    }

    @Test func aParentThatIsAFileAndAFolderToSignAreNamedAsSuch() throws {
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("a file\n".utf8).write(to: outside.appendingPathComponent("notes"))
        let keygen = try ToolProcess.run(["plugin", "keygen", "--key", outside.appendingPathComponent("notes/keys/signing.key").path])
        #expect(keygen.status == 2)
        #expect(keygen.error.contains("\(outside.appendingPathComponent("notes").path) is a file, not a folder"), "\(keygen.error)")
        let key = outside.appendingPathComponent("signing.key")
        #expect(try ToolProcess.run(["plugin", "keygen", "--key", key.path]).status == 0)
        let sign = try ToolProcess.run(["sign", outside.path, "--key", key.path])
        #expect(sign.status == 2)
        #expect(sign.error.contains("\(outside.path) is a folder; nothing was signed"), "\(sign.error)")
    }

    @Test func aResultsCacheInTheWorkTreeIsRefusedBeforeAnythingIsWritten() throws {
        let scratch = try Scratch.fixtureRepository()
        let before = try scratch.everyFile()
        let result = try tool(scratch, ["cached", "lint", "--input", ".", "--cache", scratch.root.appendingPathComponent("results").path, "--", "/bin/true"])
        #expect(result.status == 2)
        #expect(result.error.contains("is inside the repository and git does not ignore it"))
        #expect(try scratch.everyFile() == before)
    }

    private func archive(_ version: String, key: PluginSigningKey) throws -> URL {
        let url = outside.appendingPathComponent("badge-\(version).tar")
        try PluginArchiveFixture.write(version: version, library: Data("library".utf8), signer: key, to: url)
        return url
    }
}
