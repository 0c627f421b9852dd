import Foundation
import Testing
import TestSupport

/// `componentctl api-diff` and the API checks of `release`, on an interface of the frozen fixture workspace,
/// built for real (its packages build in seconds).
@Suite(.tags(.buildsPackages), .serialized, .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct APIDiffTests {
    static let catalog = "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/Catalog.swift"
    static let original = """
        /// What the shelf knows about its books.
        public protocol ShelfCatalog {
            /// Every title.
            func titles() -> [String]
            /// How many books of `author`.
            func count(of author: String) -> Int
        }

        /// How the shelf is sorted.
        public enum ShelfOrder {
            case title, author, year
        }

        /// One book's place.
        public struct ShelfEntry {
            public var id: Int
            public init(id: Int) { self.id = id }
        }

        """

    /// The fixture with the catalog released as shelf-interface 1.0.0.
    private func released() throws -> Scratch {
        let scratch = try Scratch.fixture()
        try scratch.write(Self.catalog, Self.original)
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, ["release", "shelf-interface", "1.0.0"]).status == 0)
        return scratch
    }

    private func tool(_ scratch: Scratch, _ arguments: [String]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    @Test func breakingChangesAreFoundAndAdditionsOrDocumentationAreNot() throws {
        let scratch = try released()
        let cases: [(String, (String) -> String, String?)] = [
            (
                "an added requirement",
                { $0.replacingOccurrences(of: "    func titles() -> [String]\n", with: "    func titles() -> [String]\n    func shelves() -> Int\n") },
                "Func ShelfCatalog.shelves() has been added as a protocol requirement"
            ),
            (
                "a removed case", { $0.replacingOccurrences(of: "case title, author, year", with: "case title, author") },
                "EnumElement ShelfOrder.year has been removed"
            ),
            (
                "a changed parameter type",
                { $0.replacingOccurrences(of: "public init(id: Int) { self.id = id }", with: "public init(id: String) { self.id = 0 }") },
                "has parameter 0 type change from Swift.Int to Swift.String"
            ),
            (
                "a removed function",
                { $0.replacingOccurrences(of: "    /// How many books of `author`.\n    func count(of author: String) -> Int\n", with: "") },
                "Func ShelfCatalog.count(of:) has been removed"
            ),
            ("an added member", { $0 + "\n/// A note on the shelf.\npublic struct ShelfNote {\n    public var text: String\n}\n" }, nil),
            ("a documentation change", { $0.replacingOccurrences(of: "/// Every title.", with: "/// Every title, sorted.") }, nil),
        ]
        for (name, edit, expected) in cases {
            try scratch.write(Self.catalog, edit(Self.original))
            let result = try tool(scratch, ["api-diff", "shelf-interface"])
            if let expected {
                #expect(result.status == 1, "\(name): \(result.output)\(result.error)")
                #expect(result.output.contains(expected), "\(name): \(result.output)")
                #expect(result.output.contains("The smallest version after 1.0.0 that allows this: 2.0.0"), "\(name)")
            } else {
                #expect(result.status == 0, "\(name): \(result.output)\(result.error)")
                #expect(result.output.contains("No breaking change."), "\(name)")
                let smallest = name == "an added member" ? "1.1.0 (a minor release)" : "1.0.1 (a patch release)"
                #expect(result.output.contains("The smallest version after 1.0.0 that allows this: \(smallest)"), "\(name): \(result.output)")
            }
        }
        let json = try tool(scratch, ["api-diff", "shelf-interface", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["smallestVersion"] as? String == "1.0.1")
    }

    @Test func releaseRefusesABreakingMinorReleaseAndAcceptsTheMajorOne() throws {
        let scratch = try released()
        try scratch.write(Self.catalog, Self.original.replacingOccurrences(of: "case title, author, year", with: "case title, author"))
        try scratch.commitAll("drop year")
        let minor = try tool(scratch, ["release", "shelf-interface", "1.1.0"])
        #expect(minor.status == 1)
        #expect(minor.error.contains("shelf-interface 1.1.0 would break the public API of 1.0.0 within major version 1"), "\(minor.error)")
        #expect(minor.error.contains("EnumElement ShelfOrder.year has been removed"))
        #expect(minor.error.contains("Release 2.0.0 instead"))
        #expect(try scratch.read("components.yaml").contains("    version: 1.0.0\n  reader-interface:"), "nothing was released")
        #expect(try tool(scratch, ["release", "shelf-interface", "2.0.0"]).status == 0)
        #expect(try tool(scratch, ["api-diff", "shelf-interface", "--from", "1.0.0", "--to", "2.0.0"]).status == 1, "between two releases")
    }

    @Test func unknownVersionsComponentsWithoutReleasesAndBrokenBuildsAreClearErrors() throws {
        let scratch = try released()
        let unknown = try tool(scratch, ["api-diff", "shelf-interface", "--from", "9.9.9"])
        #expect(unknown.status == 2, "a usage error, as pin says it")
        #expect(unknown.error.contains("'shelf-interface' has no release 9.9.9 (no tag shelf-interface@9.9.9). Released: 1.0.0."))
        let none = try tool(scratch, ["api-diff", "reader-interface"])
        #expect(none.status == 2)
        #expect(none.error.contains("'reader-interface' has no releases to compare with. Release it first"))
        try scratch.write(Self.catalog, Self.original + "\nlet broken: Int = \"no\"\n")
        let broken = try tool(scratch, ["api-diff", "shelf-interface"])
        #expect(broken.status == 4)
        #expect(broken.error.contains("the build log is .build/componentctl-logs/api-diff-shelf-interface-the-working-tree.log"), "\(broken.error)")
        #expect(try scratch.read(".build/componentctl-logs/api-diff-shelf-interface-the-working-tree.log").contains("error:"))
        #expect(try tool(scratch, ["api-diff", "shelf-interface", "--to", "1.0.0", "--working-tree"]).status == 2)
    }

    @Test func pinChecksTheAPIOfTheInterfacesTheReleaseWasBuiltAgainstNotTheirVersionNumbers() throws {
        let scratch = try released()
        #expect(try tool(scratch, ["release", "shelf", "1.0.1"]).status == 0)
        // A version number that promises nothing broke, over an API that did.
        try scratch.write(Self.catalog, Self.original.replacingOccurrences(of: "case title, author, year", with: "case title, author"))
        try scratch.commitAll("drop year, quietly")
        let refused = try tool(scratch, ["pin", "shelf", "1.0.1"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("was built against shelf-interface as it was then, whose API has changed since"), "\(refused.error)")
        #expect(refused.error.contains("EnumElement ShelfOrder.year has been removed"))
        // An addition breaks nothing the release uses.
        try scratch.write(Self.catalog, Self.original + "\npublic struct ShelfNote {}\n")
        try scratch.commitAll("add a note")
        #expect(try tool(scratch, ["pin", "shelf", "1.0.1"]).status == 0)
    }

}
