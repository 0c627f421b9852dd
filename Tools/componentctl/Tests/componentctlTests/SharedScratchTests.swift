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

    /// The fixture with a foundation component `kit` that declares a C module and both products of an external
    /// package (a git repository beside the workspace, as SwiftPM fetches any other).
    private func fixtureWithDeclaredModules() throws -> (workspace: Scratch, external: Scratch) {
        let scratch = try Scratch.fixture()
        let external = Scratch(root: scratch.root.deletingLastPathComponent().appendingPathComponent("extras"))
        try external.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "extras",
                products: [
                    .library(name: "Extras", targets: ["Extras"]),
                    .library(name: "MoreExtras", targets: ["MoreExtras"]),
                ],
                targets: [.target(name: "Extras"), .target(name: "MoreExtras")]
            )

            """)
        try external.write("Sources/Extras/Extras.swift", "public let extrasVersion = 1\n")
        try external.write("Sources/MoreExtras/MoreExtras.swift", "public let moreExtrasVersion = 1\n")
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
                    .target(
                        name: "Kit",
                        dependencies: ["CKit", .product(name: "Extras", package: "extras"), .product(name: "MoreExtras", package: "extras")]),
                    .testTarget(name: "KitTests", dependencies: ["Kit"]),
                ]
            )

            """)
        try scratch.write("Packages/Foundation/Kit/Sources/CKit/include/ckit.h", "int ckit_answer(void);\n")
        try scratch.write("Packages/Foundation/Kit/Sources/CKit/ckit.c", "#include \"ckit.h\"\nint ckit_answer(void) { return 42; }\n")
        try scratch.write(
            "Packages/Foundation/Kit/Sources/Kit/Uses.swift",
            "import CKit\nimport Extras\nimport MoreExtras\n\nlet answer = ckit_answer() + Int32(extrasVersion + moreExtrasVersion)\n")
        try scratch.commitAsNewRepository()
        return (scratch, external)
    }

    @Test func aComponentImportingAModuleItDoesNotDeclareFailsThoughAnotherBuiltItFirst() throws {
        let (scratch, external) = try fixtureWithDeclaredModules()
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

        // The package named, one of its products not: SwiftPM plans that product but does not build it.
        let manifest = "Packages/Foundation/Values/Package.swift"
        try scratch.replace(
            in: manifest, "    targets: [", with: "    dependencies: [.package(url: \"\(external.root.absoluteString)\", exact: \"1.0.0\")],\n    targets: [")
        try scratch.replace(
            in: manifest, #".target(name: "Values")"#, with: #".target(name: "Values", dependencies: [.product(name: "Extras", package: "extras")])"#)
        try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import Extras\n")
        #expect(try tool(scratch, ["build", "kit", "values", "--standalone"]).status == 0, "a product it names")
        try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import MoreExtras\n")
        let unnamed = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(unnamed.status == 4, "\(unnamed.output)")
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'MoreExtras'"))

        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Packages/Foundation/Values/Sources/Values/Undeclared.swift"))
        let fixed = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(fixed.status == 0, "\(fixed.output)")
    }

    /// `reader` depends on `values` and `kit`: its build compiles `values` with `Kit` in view, which neither a build
    /// of `values` alone nor one of `cache` (which depends on `values` only) has.
    @Test func aModuleCompiledWithMoreInViewIsCompiledAgainByABuildThatSeesLess() throws {
        let scratch = try Scratch.fixtureRepository()
        #expect(try tool(scratch, ["build", "values", "kit", "--standalone"]).status == 0)
        try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import Kit\n")
        let dependent = try tool(scratch, ["build", "reader", "--standalone"])
        #expect(dependent.status == 0, "a build of reader compiles values with kit already built: \(dependent.output)")

        let sibling = try tool(scratch, ["build", "cache", "--standalone"])
        #expect(sibling.status == 4, "\(sibling.output)")
        #expect(try scratch.read(".build/componentctl-logs/cache-build.log").contains("error: no such module 'Kit'"))
        let own = try tool(scratch, ["build", "values", "--standalone"])
        #expect(own.status == 4, "\(own.output)")
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'Kit'"))
    }

    /// `#if canImport(Kit)` asks without loading, so no `.d` file names `Kit`: `values` compiled by `reader`'s build
    /// saw it, a build of `values` alone must not.
    @Test func aModuleThatAsksCanImportIsCompiledAgainWhereTheAnswerCouldDiffer() throws {
        let scratch = try Scratch.fixtureRepository()
        try scratch.write(
            "Packages/Foundation/Values/Sources/Values/Probe.swift", "#if canImport(Kit)\npublic let sawKit = true\n#else\npublic let sawKit = false\n#endif\n")
        try scratch.write(
            "Packages/Foundation/Values/Tests/ValuesTests/ProbeTests.swift", "import Testing\nimport Values\n\n@Test func sawNoKit() { #expect(!sawKit) }\n")
        // A folder SwiftPM's record does not name is no checkout of its own: it stays as it is.
        let mine = ".build/componentctl-shared/checkouts/mine"
        try scratch.write("\(mine)/.git/HEAD", String(repeating: "a", count: 40) + "\n")
        try scratch.write("\(mine)/precious.txt", "mine\n")

        #expect(try tool(scratch, ["build", "kit", "reader", "--standalone"]).status == 0)
        let tested = try tool(scratch, ["test", "values", "--standalone"])
        let log = try scratch.read(".build/componentctl-logs/values-test.log")
        #expect(tested.status == 0, "\(tested.output)\(log)")
        #expect(try scratch.read("\(mine)/precious.txt") == "mine\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: scratch.root.appendingPathComponent(mine).path)) == nil)
    }

    /// Build-tool plugins run programs built for the host, whose modules SwiftPM keeps in a folder of their own
    /// (`Modules-tool`): `kit` generates code with a tool on a library of its own; `values` uses a plugin of a package
    /// it depends on, whose tool (built for the host only) imports `kit`'s library without declaring it. A build of
    /// `values` must fail though `kit`'s build compiled that library first.
    @Test func aPluginToolImportingAnotherPackagesToolLibraryFailsThoughThatPackageBuiltItFirst() throws {
        let scratch = try Scratch.fixture()
        try scratch.write(
            "Packages/Foundation/Kit/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Kit",
                products: [.library(name: "Kit", targets: ["Kit"])],
                targets: [
                    .target(name: "GeneratorCore"),
                    .executableTarget(name: "KitGenerator", dependencies: ["GeneratorCore"]),
                    .plugin(name: "KitPlugin", capability: .buildTool(), dependencies: ["KitGenerator"]),
                    .target(name: "Kit", plugins: ["KitPlugin"]),
                    .testTarget(name: "KitTests", dependencies: ["Kit"]),
                ]
            )

            """)
        try scratch.write(
            "Packages/Foundation/Kit/Sources/GeneratorCore/Core.swift", "public func generatedSource() -> String { \"public let generatedAnswer = 42\\n\" }\n")
        try scratch.write(
            "Packages/Foundation/Kit/Sources/KitGenerator/main.swift",
            "import Foundation\nimport GeneratorCore\n\ntry generatedSource().write(toFile: CommandLine.arguments[1], atomically: true, encoding: .utf8)\n")
        try scratch.write("Packages/Foundation/Kit/Plugins/KitPlugin/plugin.swift", Self.plugin("KitPlugin", tool: "KitGenerator", output: "Generated.swift"))
        try scratch.write("Packages/Foundation/Kit/Sources/Kit/Uses.swift", "public let kitAnswer = generatedAnswer\n")
        // The tool's package is a dependency, not a root: SwiftPM builds its tool for the host only.
        try scratch.write(
            "Packages/Foundation/Values/ValuesGen/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "ValuesGen",
                products: [.plugin(name: "ValuesPlugin", targets: ["ValuesPlugin"])],
                targets: [
                    .executableTarget(name: "ValuesGenerator"),
                    .plugin(name: "ValuesPlugin", capability: .buildTool(), dependencies: ["ValuesGenerator"]),
                ]
            )

            """)
        try scratch.write(
            "Packages/Foundation/Values/ValuesGen/Sources/ValuesGenerator/main.swift",
            "import Foundation\n\ntry \"public let valuesGenerated = 1\\n\".write(toFile: CommandLine.arguments[1], atomically: true, encoding: .utf8)\n")
        try scratch.write(
            "Packages/Foundation/Values/ValuesGen/Plugins/ValuesPlugin/plugin.swift",
            Self.plugin("ValuesPlugin", tool: "ValuesGenerator", output: "ValuesGenerated.swift"))
        try scratch.replace(
            in: "Packages/Foundation/Values/Package.swift", "    targets: [", with: "    dependencies: [.package(path: \"ValuesGen\")],\n    targets: [")
        try scratch.replace(
            in: "Packages/Foundation/Values/Package.swift", #".target(name: "Values")"#,
            with: #".target(name: "Values", plugins: [.plugin(name: "ValuesPlugin", package: "ValuesGen")])"#)
        try scratch.commitAsNewRepository()
        let clean = try tool(scratch, ["test", "kit", "values", "--standalone"])
        #expect(clean.status == 0, "the plugins run in the shared folder: \(clean.output)")

        let undeclared = "Packages/Foundation/Values/ValuesGen/Sources/ValuesGenerator/Undeclared.swift"
        try scratch.write(undeclared, "import GeneratorCore\n")
        let result = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(result.status == 4, "\(result.output)")
        #expect(result.output.contains("[1/2] kit  ok"), "\(result.output)")
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'GeneratorCore'"))
        let own = try tool(scratch, ["build", "values", "--standalone", "--scratch", "package"])
        #expect(own.status == 4, "a folder of its own fails too: \(own.output)")

        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent(undeclared))
        let fixed = try tool(scratch, ["build", "kit", "values", "--standalone"])
        #expect(fixed.status == 0, "\(fixed.output)")
    }

    /// A build-tool plugin that runs `tool` to write `output` into its work folder.
    private static func plugin(_ name: String, tool: String, output: String) -> String {
        """
        import PackagePlugin

        @main struct \(name): BuildToolPlugin {
            func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
                let output = context.pluginWorkDirectoryURL.appending(path: "\(output)")
                return [
                    .buildCommand(
                        displayName: "Generate \(output)", executable: try context.tool(named: "\(tool)").url, arguments: [output.path],
                        outputFiles: [output])
                ]
            }
        }

        """
    }

    /// Makes values depend on kit's package at its path, with `declaration` of its manifest replaced by `withKit`,
    /// and import Kit.
    private func valuesImportingKit(_ scratch: Scratch, declaration: String, withKit: String) throws {
        let manifest = "Packages/Foundation/Values/Package.swift"
        try scratch.replace(in: manifest, "    targets: [", with: "    dependencies: [.package(path: \"../Kit\")],\n    targets: [")
        try scratch.replace(in: manifest, declaration, with: withKit)
        try scratch.write("Packages/Foundation/Values/Sources/Values/Undeclared.swift", "import Kit\n")
    }

    /// A build is planned from the plan SwiftPM wrote for the package's last build; that plan goes stale when its
    /// manifest drops a dependency, and the build that saw the dropped module is done again with SwiftPM's new plan.
    @Test func aBuildPlannedFromAStalePlanIsDoneAgainWithSwiftPMsPlan() throws {
        let scratch = try Scratch.fixtureRepository()
        let declaringKit = #".target(name: "Values", dependencies: [.product(name: "Kit", package: "Kit")])"#
        try valuesImportingKit(scratch, declaration: #".target(name: "Values")"#, withKit: declaringKit)
        #expect(try tool(scratch, ["build", "kit", "values", "--standalone"]).status == 0)

        try scratch.replace(in: "Packages/Foundation/Values/Package.swift", declaringKit, with: #".target(name: "Values")"#)
        let stale = try tool(scratch, ["build", "values", "--standalone"])
        #expect(stale.status == 4, "\(stale.output)")
        let log = try scratch.read(".build/componentctl-logs/values-build.log")
        #expect(log.contains("componentctl: the build's modules differ from its plan (in view: Kit); building again."), "\(log)")
        #expect(log.contains("error: no such module 'Kit'"), "\(log)")
        #expect(try tool(scratch, ["build", "values", "--standalone"]).status == 4, "the plan now kept is SwiftPM's")
    }

    /// A package whose dependency is not checked out is resolved before its predicted build; `swift package resolve`
    /// refuses some options of `swift build`, and the planning call resolves then. A build folder that went away
    /// leaves the kept plans right.
    @Test func aPredictedBuildNeedingACheckoutPassesWithOptionsOnlySwiftBuildTakes() throws {
        let (scratch, _) = try fixtureWithDeclaredModules()
        let environment = ["COMPONENTCTL_CACHE": "off", "COMPONENTCTL_SWIFT_FLAGS": "--disable-xctest"]
        let build = { (name: String) in try ToolProcess.run(["build", name, "--standalone", "--root", scratch.root.path], environment: environment) }
        #expect(try build("values").status == 0)
        let kit = try build("kit")
        #expect(kit.status == 0, "\(kit.output)")
        #expect(try scratch.read(".build/componentctl-logs/kit-build.log").contains(" resolve\n"), "kit's plan was predicted, its checkout resolved")

        let shared = scratch.root.appendingPathComponent(".build/componentctl-shared")
        for name in try FileManager.default.contentsOfDirectory(atPath: shared.path) where name.contains("-linux-") {
            try FileManager.default.removeItem(at: shared.appendingPathComponent(name))
        }
        #expect(try build("kit").status == 0)
        #expect(try !scratch.read(".build/componentctl-logs/kit-build.log").contains("differ from its plan"))
    }

    /// A test target's dependencies are in view of `test`, not of `build`: `swift build` does not build them.
    @Test func aModuleOnlyTheTestsUseIsOutOfViewOfABuild() throws {
        let scratch = try Scratch.fixtureRepository()
        try valuesImportingKit(
            scratch, declaration: #"dependencies: ["Values"])"#, withKit: #"dependencies: ["Values", .product(name: "Kit", package: "Kit")])"#)
        #expect(try tool(scratch, ["build", "kit", "--standalone"]).status == 0)
        #expect(try tool(scratch, ["test", "values", "--standalone"]).status == 0, "kit is built and in view of the tests' build")
        let built = try tool(scratch, ["build", "values", "--standalone"])
        #expect(built.status == 4, "\(built.output)")
        #expect(try scratch.read(".build/componentctl-logs/values-build.log").contains("error: no such module 'Kit'"))
    }
}
