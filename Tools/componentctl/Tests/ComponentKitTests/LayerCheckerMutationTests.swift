import ComponentKit
import Foundation
import Testing
import TestSupport

/// Copies the frozen fixture workspace, injects one violation of a rule, and expects exactly that finding.
@Suite struct LayerCheckerMutationTests {
    private func findings(_ scratch: Scratch) throws -> [Diagnostic] {
        LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings()
    }

    @Test func theFixtureIsClean() throws {
        #expect(try findings(Scratch.fixture()).isEmpty)
    }

    @Test func aShippedDegradeRuleNamingNoRoute() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "App/Shell/Resources/degrade.json",
            """
            {
              "rules": [
                {"pattern": "lib://book/<int:bookID>", "target": "https://books.example/{id}"},
                {"pattern": "lib://bok/<int:id>", "target": "https://books.example/{id}"}
              ]
            }
            """)
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["degrade-rule-unmatched"], "a rule matches its route by shape, whatever the parameter is called")
        #expect(found.first.map { "\($0.path):\($0.line):\($0.column)" } == "App/Shell/Resources/degrade.json:4:17")
        #expect(found.first?.message.contains("'lib://bok/<int:id>' matches no route") == true)
        try scratch.write("App/Shell/Resources/degrade.json", "[]")
        #expect(try findings(scratch).map(\.rule) == ["degrade-table"])
    }

    @Test func aDegradeRulePatternTheRouterWouldRefuseIsReportedAtItsPlace() throws {
        let scratch = try Scratch.fixture()
        let bad = ["lib://book/<id>", "lib://book/:id?x=1", "book/:id", "lib://book/:id/:id", "lib://*rest/x", "lib://book/*rest/x"]
        let rules = bad.map { #"{"pattern": "\#($0)", "target": "https://books.example/"}"# }.joined(separator: ",\n  ")
        try scratch.write("App/Shell/Resources/degrade.json", "{\"rules\": [\n  \(rules)\n]}\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == Array(repeating: "degrade-table", count: bad.count), "\(found.map(\.message))")
        #expect(found.map(\.line) == Array(2...bad.count + 1))
        #expect(found.first?.message.contains("'lib://book/<id>' is not a route pattern: '<id>' is no typed parameter") == true)
    }

    @Test func anAppsDegradeTableIsCheckedAgainstTheComponentsThatAppLinks() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "Packages/Business/Reader/Sources/Reader/SettingsRoute.swift",
            "import Routing\nenum Settings { static let pattern: RoutePattern = \"lib://reader/settings\" }\n")
        try scratch.write("App/Config/degrade.json", #"{"rules": [{"pattern": "lib://reader/settings", "target": "https://books.example/"}]}"#)
        try scratch.declareApps(
            """
              shelf-only:
                components: [shelf]
                degrade: App/Config/degrade.json

            """)
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["degrade-rule-unmatched"], "shelf-only leaves the reader out: \(found.map(\.message))")
        #expect(found.first?.path == "App/Config/degrade.json")
        try scratch.write("App/Shell/Resources/degrade.json", #"{"rules": [{"pattern": "lib://reader/settings", "target": "https://books.example/"}]}"#)
        let paths = try findings(scratch).map(\.path)
        #expect(paths == ["App/Config/degrade.json"], "the bundled table serves any app, so any component's route is fine: \(paths)")
    }

    @Test func businessImplementationOnAnotherImplementation() throws {
        let scratch = try Scratch.fixture()
        try scratch.addDependency(component: "Packages/Business/Shelf", target: "Shelf", on: "../Reader", module: "Reader", source: "Shortcut.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implementation-to-implementation"])
        #expect(found.first?.path == "Packages/Business/Shelf/Package.swift")
        #expect(found.first?.line == 11)
        #expect(found.first?.fix?.contains("depend on 'reader-interface' (ReaderInterface) instead of 'reader'") == true)
    }

    @Test func coreOnBusinessIsUpward() throws {
        let scratch = try Scratch.fixture()
        try scratch.addDependency(
            component: "Packages/Core/Cache", target: "Cache", on: "../../Interfaces/ShelfInterface",
            module: "ShelfInterface", source: "Up.swift")
        #expect(try findings(scratch).map(\.rule) == ["layer-order"])
    }

    @Test func coreOnCoreNeedsAnAllowedPair() throws {
        let scratch = try Scratch.fixture()
        try scratch.replace(
            in: "components.yaml", "  allow:                    # explicit same-layer exceptions (core -> core)\n    - core/catalog -> core/cache\n",
            with: "  allow: []\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["unlisted-same-layer"])
        #expect(found.first?.fix?.contains("add '- core/catalog -> core/cache' under rules.allow") == true)
    }

    @Test func foundationOnFoundation() throws {
        let scratch = try Scratch.fixture()
        try scratch.addDependency(component: "Packages/Foundation/Kit", target: "Kit", on: "../Values", module: "Values", source: "V.swift")
        #expect(try findings(scratch).map(\.rule) == ["same-layer-forbidden"])
    }

    @Test func interfaceOnAnImplementation() throws {
        let scratch = try Scratch.fixture()
        try scratch.addDependency(
            component: "Packages/Interfaces/ReaderInterface", target: "ReaderInterface", on: "../../Core/Cache",
            module: "Cache", source: "C.swift")
        #expect(try findings(scratch).map(\.rule) == ["interface-purity"])
    }

    @Test func cycleWithFullPath() throws {
        let scratch = try Scratch.fixture()
        try scratch.replace(
            in: "components.yaml", "    - core/catalog -> core/cache\n",
            with: "    - core/catalog -> core/cache\n    - core/cache -> core/catalog\n")
        try scratch.addDependency(component: "Packages/Core/Cache", target: "Cache", on: "../Catalog", module: "Catalog", source: "Loop.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["cycle"])
        #expect(found.first?.message == "dependency cycle: cache -> catalog -> cache")
    }

    @Test func unregisteredPackage() throws {
        let scratch = try Scratch.fixture()
        try scratch.package("Packages/Extra/Widget", name: "Widget")
        try scratch.addDependency(component: "Packages/Business/Reader", target: "Reader", on: "../../Extra/Widget", module: "Widget", source: "W.swift")
        #expect(try findings(scratch).map(\.rule) == ["unknown-dependency"])
    }

    @Test func anImportThatBreaksALayerRuleIsReportedUnderThatRule() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Sneaky.swift", "// fine: import Reader\n\n@testable import Reader\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implementation-to-implementation"])
        #expect(found.first?.path == "Packages/Business/Shelf/Sources/Shelf/Sneaky.swift")
        #expect(found.first?.line == 3)
        #expect(found.first?.column == 18)
        #expect(found.first?.message.contains("business implementation 'shelf' depends on business implementation 'reader'") == true)
        #expect(found.first?.fix?.hasPrefix("remove the import") == true)
    }

    @Test func implicitImportOfATransitiveModuleSaysWhatToDeclare() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Transitive.swift", "#if os(Linux)\nimport Cache\n#endif\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implicit-import"])
        #expect(found.first?.message.contains("(in #if os(Linux)") == true)
        #expect(found.first?.fix?.hasPrefix("add .product(name: \"Cache\", package: \"Cache\")") == true)
    }

    @Test func theFixOfAnImplicitImportNamesTheProductHoldingTheModule() throws {
        let scratch = try Scratch.fixture()
        let manifest = "Packages/Core/Cache/Package.swift"
        try scratch.replace(
            in: manifest, #".library(name: "Cache", targets: ["Cache"]),"#, with: #".library(name: "Cache", targets: ["Cache", "Disk-Store"]),"#)
        try scratch.replace(
            in: manifest, #".target(name: "Cache", dependencies: ["Values"]),"#,
            with: #".target(name: "Cache", dependencies: ["Values"]), .target(name: "Disk-Store"), .target(name: "Unlisted"),"#)
        try scratch.write("Packages/Core/Cache/Sources/Disk-Store/Disk.swift", "public struct Disk {}\n")
        try scratch.write("Packages/Core/Cache/Sources/Unlisted/Unlisted.swift", "public struct Unlisted {}\n")
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Transitive.swift", "import Disk_Store\nimport Unlisted\n")
        let found = try findings(scratch).filter { $0.rule == "implicit-import" }
        #expect(found.count == 2)
        #expect(found.first?.fix?.hasPrefix("add .product(name: \"Cache\", package: \"Cache\")") == true, "\(found.first?.fix ?? "")")
        #expect(found.last?.fix?.hasPrefix("'cache' has no product holding Unlisted: add a library product") == true, "\(found.last?.fix ?? "")")
    }

    @Test func theAppItselfDeclaresWhatItImports() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("App/Extra.swift", "import Shelf\nimport Cache\n")
        try scratch.write("Tests/AppTests/More.swift", "#if canImport(Reader)\nimport Reader\n#endif\n")
        let found = try findings(scratch)
        #expect(
            found.map { "\($0.path):\($0.line):\($0.column) \($0.rule)" } == [
                "App/Extra.swift:2:8 implicit-import", "Tests/AppTests/More.swift:2:8 implicit-import",
            ])
        #expect(found.first?.message.contains("'App' imports Cache, which target 'App' of the root package does not declare") == true)
        #expect(found.first?.fix == "add .product(name: \"Cache\", package: \"Cache\") to the dependencies of target 'App' in Package.swift")
        #expect(found.last?.message.contains("a guarded import is an import all the same") == true)
    }

    @Test func theShellEveryAppRunsInImportsNoImplementation() throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps("  full:\n    components: [shelf, reader]\n", shellImports: ["Routing", "Shelf"])
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["shell-implementation"])
        #expect(found.first.map { "\($0.path):\($0.line)" } == "App/Shell/Shell.swift:2")
        #expect(found.first?.fix?.contains("reach 'shelf' through its interface and the router") == true)
    }

    @Test func anInterfaceThatHoldsBehaviour() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/Cache.swift",
            "/// Remembers books.\npublic final class BookCache {\n    private var books: [Int] = []\n    public func add(_ book: Int) { books.append(book) }\n}\n"
        )
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["interface-behaviour"])
        #expect(found.first.map { "\($0.path):\($0.line):\($0.column)" } == "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/Cache.swift:2:14")
        #expect(found.first?.message == "interface 'shelf-interface' holds behaviour: class BookCache")
        #expect(found.first?.fix?.contains("make it a struct that carries data, or a protocol") == true)
    }

    @Test func aRouteOutsideTheWorkspacesScheme() throws {
        let scratch = try Scratch.fixture()
        let scheme = try scratch.load().scheme
        try scratch.write(
            "Packages/Business/Shelf/Sources/Shelf/Steal.swift",
            "func wire(_ registry: Registry) throws {\n    try registry.register(\"evil://steal/:token\", owner: \"shelf\")\n"
                + "    try registry.register(\"https://bank.example/:page\", owner: \"shelf\")\n    try registry.register(\"\(scheme)://fine/:page\", owner: \"shelf\")\n}\n"
        )
        let found = try findings(scratch)
        #expect(found.map { "\($0.line):\($0.column) \($0.rule)" } == ["2:27 route-scheme", "3:27 route-scheme"])
        #expect(found.first?.message.contains("uses the scheme 'evil', not the workspace's '\(scheme)'") == true)
        #expect(found.first?.fix == "write it as '\(scheme)://steal/:token', or change workspace.scheme in components.yaml")
        #expect(found.last?.message.contains("belongs to the App's web container") == true)
    }

    @Test func aGuardedImportIsAnImport() throws {
        let scratch = try Scratch.fixture()
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Platform.swift", "#if canImport(Cache)\nimport Cache\n#endif\n")
        let undeclared = try findings(scratch)
        #expect(undeclared.map(\.rule) == ["implicit-import"])
        #expect(undeclared.first.map { "\($0.path):\($0.line):\($0.column)" } == "Packages/Business/Shelf/Sources/Shelf/Platform.swift:2:8")
        #expect(undeclared.first?.message.contains("in #if canImport(Cache): a guarded import is an import all the same") == true)
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Platform.swift", "#if canImport(Reader)\nimport Reader\n#endif\n")
        let forbidden = try findings(scratch)
        #expect(forbidden.map(\.rule) == ["implementation-to-implementation"], "under the rule it breaks")
        #expect(forbidden.first?.message.contains("a guarded import is an import") == true)
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Platform.swift", "#if canImport(Glibc)\nimport Glibc\n#endif\n")
        #expect(try findings(scratch).isEmpty, "a toolchain module needs no declaration, guarded or not")
    }

    @Test func redundantDependencyIsAWarning() throws {
        let scratch = try Scratch.fixture()
        let manifest = "Packages/Interfaces/ShelfInterface/Package.swift"
        try scratch.replace(in: manifest, "    dependencies: [\n", with: "    dependencies: [\n        .package(path: \"../../Foundation/Values\"),\n")
        try scratch.replace(
            in: manifest, ".target(name: \"ShelfInterface\", dependencies: [\"Routing\"]",
            with: ".target(name: \"ShelfInterface\", dependencies: [\"Routing\", \"Values\"]")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["redundant-dependency"])
        #expect(found.first?.severity == .warning)
    }

    @Test func testSupportOnlyInTestsAndDemos() throws {
        // ShelfTests uses ReaderInterfaceTestSupport already; a demo may too; the library may not.
        let scratch = try Scratch.fixture()
        let manifest = "Packages/Business/Shelf/Package.swift"
        try scratch.replace(
            in: manifest, ".executableTarget(name: \"ShelfDemo\", dependencies: [\"Shelf\", \"Routing\"])",
            with: ".executableTarget(name: \"ShelfDemo\", dependencies: [\"Shelf\", \"Routing\", "
                + ".product(name: \"ReaderInterfaceTestSupport\", package: \"ReaderInterface\")])")
        try scratch.write("Packages/Business/Shelf/Sources/ShelfDemo/Fakes.swift", "import ReaderInterfaceTestSupport\n")
        #expect(try findings(scratch).isEmpty)

        try scratch.replace(
            in: manifest, ".target(name: \"Shelf\", dependencies: [",
            with: ".target(name: \"Shelf\", dependencies: [.product(name: \"ReaderInterfaceTestSupport\", package: \"ReaderInterface\"), ")
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/Fakes.swift", "import ReaderInterfaceTestSupport\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["test-support-in-production"])
        #expect(found.first?.path == manifest)
        #expect(
            found.first?.message == "target 'Shelf' depends on the test-support module ReaderInterfaceTestSupport, "
                + "which only test targets and demos (`…Demo` executables) may use")
    }

    @Test func anExecutableThatIsNoDemoMayNotUseTestSupport() throws {
        let scratch = try Scratch.fixture()
        let manifest = "Packages/Business/Shelf/Package.swift"
        try scratch.replace(
            in: manifest, ".executableTarget(name: \"ShelfDemo\", dependencies: [\"Shelf\", \"Routing\"])",
            with: ".executableTarget(name: \"ShelfDemo\", dependencies: [\"Shelf\", \"Routing\"]),\n        .executableTarget(name: \"ShelfServer\", "
                + "dependencies: [.product(name: \"ReaderInterfaceTestSupport\", package: \"ReaderInterface\")])")
        try scratch.write("Packages/Business/Shelf/Sources/ShelfServer/main.swift", "import ReaderInterfaceTestSupport\n")
        #expect(try findings(scratch).map(\.rule) == ["test-support-in-production"])
    }

    @Test func rulesAreData() throws {
        // An explicit pair under rules.allow legalises one edge, whatever the layer's policy.
        let scratch = try Scratch.fixture()
        try scratch.addDependency(component: "Packages/Business/Shelf", target: "Shelf", on: "../Reader", module: "Reader", source: "Shortcut.swift")
        try scratch.addDependency(component: "Packages/Foundation/Kit", target: "Kit", on: "../Values", module: "Values", source: "V.swift")
        try scratch.replace(
            in: "components.yaml", "    - core/catalog -> core/cache\n",
            with: "    - core/catalog -> core/cache\n    - business/shelf -> business/reader\n")
        #expect(try findings(scratch).map(\.rule) == ["same-layer-forbidden"])
        try scratch.replace(
            in: "components.yaml", "  allow:", with: "  same-layer: {foundation: allow-list}\n  allow:\n    - foundation/kit -> foundation/values")
        let found = try findings(scratch)
        #expect(found.isEmpty, "\(found.map(\.text))")
    }
}

@Suite struct RouteCollisionTests {
    @Test func twoComponentsClaimingOneShapeAreCaughtStatically() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "Packages/Business/Shelf/Sources/Shelf/Promo.swift",
            """
            import Routing
            func registerPromo(_ registry: inout Registry) throws {
                try registry.register("lib://book/<int:number>", owner: "shelf")
            }
            """)
        let found = LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings()
        #expect(found.map(\.rule) == ["route-collision"])
        // The later one in components.yaml order is flagged; the message names both owners and places.
        #expect(found.first?.path == "Packages/Interfaces/ReaderInterface/Sources/ReaderInterface/ReaderInterface.swift")
        #expect(
            found.first?.message == "route 'lib://book/<int:id>' of 'reader' has the shape of 'lib://book/<int:number>' of 'shelf' "
                + "(Packages/Business/Shelf/Sources/Shelf/Promo.swift:3:27); the router refuses the second at launch")
    }

    @Test func routesRegisteredInABatchAreCaughtToo() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "Packages/Business/Shelf/Sources/Shelf/Promo.swift",
            """
            import Routing
            func registerPromo(_ register: (String) -> Void) {
                register([
                    RouteRegistration("lib://promo/list", owner: "shelf") { _ in nil },
                    RouteRegistration("lib://book/<int:code>", owner: "shelf") { _ in nil },
                ])
            }
            """)
        let found = LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings()
        #expect(found.map(\.rule) == ["route-collision"])
        #expect(found.first?.message.contains("'lib://book/<int:code>' of 'shelf' (Packages/Business/Shelf/Sources/Shelf/Promo.swift:5:27)") == true)
    }

    @Test func demosAndTestsMayStandIn() throws {
        // ShelfDemo registers a stand-in for lib://book/<int:id>: demos and tests are not the App.
        let scratch = try Scratch.fixture()
        #expect(try scratch.read("Packages/Business/Shelf/Sources/ShelfDemo/main.swift").contains("\"lib://book/<int:id>\""))
        #expect(LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings().isEmpty)
    }

}
