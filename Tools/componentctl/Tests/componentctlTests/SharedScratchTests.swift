import Foundation
import Testing
import TestSupport

/// Standalone builds share compiled work in one scratch folder, yet each fails exactly where a build in a folder
/// of its own would: with the compiler's error for a module its package does not declare.
@Suite(.tags(.buildsPackages), .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct SharedScratchTests {
    private func tool(_ scratch: Scratch, _ arguments: [String]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path], environment: ["COMPONENTCTL_CACHE": "off"])
    }

    /// The fixture with a foundation component `kit` that declares a C module and a product of an external
    /// package (a git repository beside the workspace, as SwiftPM fetches any other).
    private func fixtureWithDeclaredModules() throws -> Scratch {
        let scratch = try Scratch.fixture()
        let external = Scratch(root: scratch.root.deletingLastPathComponent().appendingPathComponent("extras"))
        try external.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "extras",
                products: [.library(name: "Extras", targets: ["Extras"])],
                targets: [.target(name: "Extras")]
            )

            """)
        try external.write("Sources/Extras/Extras.swift", "public let extrasVersion = 1\n")
        try external.commitAsNewRepository()
        _ = try external.git("tag", "1.0.0")
        try scratch.write(
            "Packages/Foundation/Kit/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Kit",
                products: [
                    .library(name: "Kit", targets: ["Kit"]),
                ],
                dependencies: [
                    .package(url: "\(external.root.absoluteString)", exact: "1.0.0"),
                ],
                targets: [
                    .target(name: "CKit"),
                    .target(name: "Kit", dependencies: ["CKit", .product(name: "Extras", package: "extras")]),
                    .testTarget(name: "KitTests", dependencies: ["Kit"]),
                ]
            )

            """)
        try scratch.write("Packages/Foundation/Kit/Sources/CKit/include/ckit.h", "int ckit_answer(void);\n")
        try scratch.write("Packages/Foundation/Kit/Sources/CKit/ckit.c", "#include \"ckit.h\"\nint ckit_answer(void) { return 42; }\n")
        try scratch.write("Packages/Foundation/Kit/Sources/Kit/Uses.swift", "import CKit\nimport Extras\n\nlet answer = ckit_answer() + Int32(extrasVersion)\n")
        try scratch.commitAsNewRepository()
        return scratch
    }

    @Test func aComponentImportingAModuleItDoesNotDeclareFailsThoughAnotherBuiltItFirst() throws {
        let scratch = try fixtureWithDeclaredModules()
        let clean = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(clean.status == 0, "\(clean.output)")

        for module in ["Kit", "CKit", "Extras"] {
            try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import \(module)\n")
            let result = try tool(scratch, ["build", "kit", "values", "--standalone"])
            #expect(result.status == 4, "\(module): \(result.output)")
            #expect(result.output.contains("[1/2] kit  ok"), "\(result.output)")
            #expect(result.output.contains("values: build failed"), "\(result.output)")
            let log = try scratch.read(".build/componentctl-logs/values-build.log")
            #expect(log.contains("error: no such module '\(module)'"), "\(module): \(log)")
        }
        // What the shared folder must agree with: the package built in a folder of its own.
        let own = try tool(scratch, ["build", "values", "--standalone", "--scratch", "package"])
        #expect(own.status == 4)
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'Extras'"))

        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Foundation/Values/Sources/Values/Undeclared.swift"))
        let fixed = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(fixed.status == 0, "\(fixed.output)")
    }

    /// `reader` depends on `values` and `kit`: its build compiles `values` with `Kit` in view, which a build of
    /// `values` alone never has.
    @Test func aComponentADependentsBuildCompiledIsCompiledAgainByItsOwnBuild() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["build", "values", "kit", "--standalone"]).status == 0)
        try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import Kit\n")
        let dependent = try tool(scratch, ["build", "reader", "--standalone"])
        #expect(dependent.status == 0, "a build of reader compiles values with kit already built: \(dependent.output)")

        let own = try tool(scratch, ["build", "values", "--standalone"])
        #expect(own.status == 4, "\(own.output)")
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'Kit'"))
    }
}
