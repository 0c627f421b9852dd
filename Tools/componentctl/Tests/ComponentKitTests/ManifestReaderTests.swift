import ComponentKit
import Testing

@Suite struct ManifestReaderTests {
    private func read(_ text: String) throws -> PackageManifest { try ManifestReader.read(Array(text.utf8)) }

    @Test func readsDependenciesProductsAndTargets() throws {
        let manifest = try read(
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Cart",
                products: [
                    .library(name: "Cart", targets: ["Cart"]),
                    .executable(name: "CartDemo", targets: ["CartDemo"]),
                ],
                dependencies: [
                    .package(path: "../../Interfaces/CartInterface"),
                    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
                ],
                targets: [
                    .target(name: "Cart", dependencies: ["CartInterface", .product(name: "GRDB", package: "GRDB.swift"), .target(name: "Util")]),
                    .target(name: "Util", path: "Sources/Shared/Util", resources: [.copy("x.json")]),
                    .executableTarget(name: "CartDemo", dependencies: [.byName(name: "Cart")]),
                    .testTarget(name: "CartTests", dependencies: ["Cart"]),
                ]
            )
            """)
        #expect(manifest.name == "Cart")
        #expect(manifest.dependencies.map(\.identity) == ["cartinterface", "grdb.swift"])
        #expect(manifest.dependencies[0].location == ManifestLocation(line: 11, column: 24))
        #expect(manifest.products.map(\.name) == ["Cart", "CartDemo"])
        #expect(manifest.targets.map(\.name) == ["Cart", "Util", "CartDemo", "CartTests"])
        #expect(manifest.targets.map(\.kind) == [.regular, .regular, .executable, .test])
        #expect(
            manifest.target(named: "Cart")?.dependencies.map(\.reference) == [
                .byName("CartInterface"), .product("GRDB", package: "GRDB.swift"), .target("Util"),
            ])
        #expect(manifest.target(named: "Util")?.sourceFolder == "Sources/Shared/Util")
        #expect(manifest.target(named: "CartTests")?.sourceFolder == "Tests/CartTests")
        #expect(manifest.target(named: "CartDemo")?.dependencies.first?.location.line == 17)
    }

    @Test func followsBindingsConcatenationAndCommentedOutCode() throws {
        let manifest = try read(
            """
            import PackageDescription
            // .package(path: "../Commented"),
            let shared: [Package.Dependency] = [
                .package(path: "Packages/Core/Storage"), /* .package(path: "../Hidden"), */
            ]
            let products: [Target.Dependency] = [.product(name: "Storage", package: "Storage")]
            let package = Package(
                name: "Root",
                dependencies: shared + [Package.Dependency.package(path: "Packages/Foundation/Router")],
                targets: [
                    .executableTarget(name: "App", dependencies: products + ["Router"], path: "App/Main",
                                      swiftSettings: [.define("X", .when(platforms: [.linux]))]),
                ]
            )
            """)
        #expect(manifest.dependencies.compactMap(\.path) == ["Packages/Core/Storage", "Packages/Foundation/Router"])
        #expect(manifest.targets.first?.dependencies.map(\.name) == ["Storage", "Router"])
        #expect(manifest.targets.first?.path == "App/Main")
    }

    @Test func pathsTheCompilerMustWorkOutAreNoLiterals() throws {
        let manifest = try read(
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let name = "Util"
            let package = Package(
                name: "Shelf",
                dependencies: [
                    .package(path: "../../Shared/\\(name)"),
                    .package(path: \"\"\"
                        ../../Shared/Other
                        \"\"\"),
                    .package(path: "../Kit"),
                ],
                targets: [.target(name: "Shelf")]
            )
            package.dependencies.append(.package(path: "../Late"))
            if ProcessInfo.processInfo.environment["LOCAL"] != nil {
                package.dependencies += [.package(path: "../Local")]
            }
            """)
        #expect(manifest.dependencies.map(\.path) == [nil, nil, "../Kit"], "an interpolated and a multi-line literal are expressions")
        #expect(manifest.unresolved.map(\.line) == [7, 8, 15, 16], "expressions, a change of package after its declaration and an if are unresolved")
    }

    @Test func aFileWithoutAPackageIsAnError() {
        #expect(throws: ManifestError.self) { try read("import PackageDescription\nlet x = 1\n") }
    }
}
