import ComponentKit
import Foundation
import Testing

/// Manifests written for each construct real teams use, each compared with SwiftPM's own reading
/// (`swift package dump-package`): the static reader agrees with SwiftPM, or leaves the manifest to it.
@Suite struct ManifestCorpusTests {
    /// One construct: a manifest and what SwiftPM reads in it, written out by hand.
    struct Case: CustomTestStringConvertible, Sendable {
        var construct: String
        var manifest: String
        /// Whether the static reader can be sure of it.
        var isStatic: Bool
        var check: @Sendable (PackageManifest) -> Void
        var testDescription: String { construct }
    }

    static let cases: [Case] = [
        Case(
            construct: "literals, bindings, + and a settings loop",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let shared: [Target.Dependency] = [.product(name: "Logging", package: "swift-log")]
                let package = Package(
                    name: "Plain",
                    products: [.library(name: "Plain", type: .dynamic, targets: ["Plain"])],
                    dependencies: [.package(path: "../Core"), .package(url: "https://github.com/apple/swift-log", from: "1.5.0")],
                    targets: [
                        .target(name: "Plain", dependencies: shared + ["Core", .target(name: "Util")]),
                        .target(name: "Util", path: "Sources/Shared"),
                        .testTarget(name: "PlainTests", dependencies: ["Plain"]),
                    ]
                )
                for target in package.targets where target.type != .test {
                    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
                }
                """,
            isStatic: true,
            check: { manifest in
                #expect(manifest.targets.map(\.name) == ["Plain", "Util", "PlainTests"])
                #expect(manifest.target(named: "Plain")?.dependencies.map(\.name) == ["Logging", "Core", "Util"])
                #expect(manifest.dependencies.map(\.requirement) == [nil, "from: 1.5.0"])
                #expect(manifest.products.first?.isDynamicLibrary == true)
            }),
        Case(
            construct: "helpers with unlabelled parameters",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                extension Product {
                    static func single(_ name: String) -> Product { .library(name: name, targets: [name]) }
                }
                func upTo(_ version: Version) -> Range<Version> { "1.0.0"..<version }
                let package = Package(
                    name: "Helpers",
                    products: [.single("Helpers")],
                    dependencies: [.package(url: "https://github.com/apple/swift-log", upTo("1.6.0")), .package(path: "../Kit")],
                    targets: [.target(name: "Helpers", dependencies: ["Kit"])]
                )
                """,
            isStatic: false,
            check: { manifest in
                #expect(manifest.products.map(\.name) == ["Helpers"])
                #expect(manifest.dependencies.map(\.requirement) == ["range: 1.0.0..<1.6.0", nil])
                #expect(manifest.dependencies.last?.path == "../Kit")
                #expect(manifest.target(named: "Helpers")?.dependencies.map(\.name) == ["Kit"])
            }),
        Case(
            construct: "product names built by interpolation",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                func core(_ module: String) -> Target.Dependency { .product(name: "Core\\(module)", package: "core") }
                let package = Package(
                    name: "Feature",
                    dependencies: [.package(path: "../core")],
                    targets: [.target(name: "Feature", dependencies: [core("Network"), core("Storage")])]
                )
                """,
            isStatic: false,
            check: { manifest in
                #expect(
                    manifest.target(named: "Feature")?.dependencies.map(\.reference) == [
                        .product("CoreNetwork", package: "core"), .product("CoreStorage", package: "core"),
                    ])
            }),
        Case(
            construct: "targets appended, outside and inside an if",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Grows", targets: [.target(name: "A")])
                package.targets.append(.target(name: "B", dependencies: ["A"]))
                if true {
                    package.targets += [.testTarget(name: "BTests", dependencies: ["B"])]
                }
                package.dependencies.append(.package(path: "../Late"))
                """,
            isStatic: false,
            check: { manifest in
                #expect(manifest.targets.map(\.name) == ["A", "B", "BTests"])
                #expect(manifest.dependencies.compactMap(\.path) == ["../Late"])
            }),
        Case(
            construct: "#if os(...) choosing a binding",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                #if os(Linux)
                let platformTargets: [Target] = [.target(name: "LinuxSupport")]
                #else
                let platformTargets: [Target] = [.target(name: "AppleSupport")]
                #endif
                let package = Package(name: "Conditional", targets: [.target(name: "Main")] + platformTargets)
                """,
            isStatic: false,
            check: { manifest in
                #expect(manifest.targets.map(\.name) == ["Main", "LinuxSupport"], "SwiftPM on Linux takes the Linux branch")
            }),
        Case(
            construct: "targets from an enum's allCases",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                enum Module: String, CaseIterable {
                    case models = "Models", network = "Network"
                    var target: Target { .target(name: rawValue, dependencies: self == .network ? ["Models"] : []) }
                }
                let package = Package(name: "Enumerated", targets: Module.allCases.map(\\.target))
                """,
            isStatic: false,
            check: { manifest in
                #expect(manifest.targets.map(\.name) == ["Models", "Network"])
                #expect(manifest.target(named: "Network")?.dependencies.map(\.name) == ["Models"])
            }),
        Case(
            construct: "conditions: .when(traits:) and .when(platforms:)",
            manifest: """
                // swift-tools-version: 6.1
                import PackageDescription
                let package = Package(
                    name: "Traits",
                    traits: ["Tracing"],
                    dependencies: [.package(url: "https://github.com/apple/swift-log", exact: "1.6.1")],
                    targets: [
                        .target(name: "Traits", dependencies: [
                            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Tracing"])),
                            .target(name: "Glue", condition: .when(platforms: [.linux])),
                        ]),
                        .target(name: "Glue"),
                    ]
                )
                """,
            isStatic: true,
            check: { manifest in
                #expect(manifest.target(named: "Traits")?.dependencies.map(\.name) == ["Logging", "Glue"])
                #expect(manifest.dependencies.first?.isExact == true)
            }),
        Case(
            construct: ".targetItem, .productItem and .byNameItem",
            manifest: """
                // swift-tools-version: 5.9
                import PackageDescription
                let package = Package(
                    name: "Items",
                    dependencies: [.package(path: "../Kit")],
                    targets: [
                        .target(name: "Items", dependencies: [
                            .targetItem(name: "Base", condition: nil),
                            .productItem(name: "Kit", package: "Kit", moduleAliases: nil, condition: nil),
                            .byNameItem(name: "Extra", condition: nil),
                        ]),
                        .target(name: "Base"),
                        .target(name: "Extra"),
                    ]
                )
                """,
            isStatic: true,
            check: { manifest in
                #expect(manifest.target(named: "Items")?.dependencies.map(\.reference) == [.target("Base"), .product("Kit", package: "Kit"), .byName("Extra")])
            }),
        Case(
            construct: "every requirement form",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(
                    name: "Requirements",
                    dependencies: [
                        .package(url: "https://example.com/a.git", from: "1.2.0"),
                        .package(url: "https://example.com/b.git", exact: "2.0.0"),
                        .package(url: "https://example.com/c.git", revision: "0123456789abcdef0123456789abcdef01234567"),
                        .package(url: "https://example.com/d.git", branch: "main"),
                        .package(url: "https://example.com/e.git", .upToNextMajor(from: "3.1.0")),
                        .package(url: "https://example.com/f.git", .upToNextMinor(from: "4.2.0")),
                        .package(url: "https://example.com/g.git", .exact("5.0.1")),
                        .package(url: "https://example.com/h.git", "1.0.0"..<"1.4.0"),
                        .package(url: "https://example.com/i.git", .revision("abcdef")),
                        .package(url: "https://example.com/j.git", .branch("develop")),
                    ],
                    targets: []
                )
                """,
            isStatic: true,
            check: { manifest in
                #expect(
                    manifest.dependencies.map(\.requirement) == [
                        "from: 1.2.0", "exact: 2.0.0", "revision: 0123456789abcdef0123456789abcdef01234567", "branch: main", "from: 3.1.0",
                        "upToNextMinor: 4.2.0", "exact: 5.0.1", "range: 1.0.0..<1.4.0", "revision: abcdef", "branch: develop",
                    ])
                #expect(manifest.dependencies.map(\.isExact) == [false, true, true, false, false, false, true, false, true, false])
            }),
        Case(
            construct: "a closed range",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Closed", dependencies: [.package(url: "https://example.com/a.git", "1.0.0"..."1.9.9")], targets: [])
                """,
            isStatic: false,
            check: { manifest in #expect(manifest.dependencies.first?.requirement == "range: 1.0.0..<1.9.10") }),
        Case(
            construct: "plugin products",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(
                    name: "Plugins",
                    products: [.plugin(name: "Lint", targets: ["Lint"]), .executable(name: "lint-tool", targets: ["LintTool"])],
                    targets: [
                        .plugin(name: "Lint", capability: .buildTool(), dependencies: ["LintTool"]),
                        .executableTarget(name: "LintTool"),
                    ]
                )
                """,
            isStatic: true,
            check: { manifest in
                #expect(manifest.products.map(\.isPlugin) == [true, false])
                #expect(manifest.target(named: "Lint")?.kind == .plugin)
            }),
        Case(
            construct: "the legacy .package(name:url:)",
            manifest: """
                // swift-tools-version: 5.5
                import PackageDescription
                let package = Package(
                    name: "Legacy",
                    dependencies: [.package(name: "Promises", url: "https://github.com/google/promises.git", from: "2.0.0")],
                    targets: [.target(name: "Legacy", dependencies: [.product(name: "FBLPromises", package: "Promises")])]
                )
                """,
            isStatic: true,
            check: { manifest in
                #expect(manifest.dependencies.first?.name == "Promises")
                #expect(manifest.dependencies.first?.identity == "promises")
            }),
        Case(
            construct: "a value chosen by the environment",
            manifest: """
                // swift-tools-version: 6.0
                import PackageDescription
                let extra: [Target] = Context.environment["CORPUS_EXTRA"] == "1" ? [.target(name: "Extra")] : []
                let package = Package(name: "Chosen", targets: [.target(name: "Main")] + extra)
                """,
            isStatic: false,
            check: { manifest in #expect(manifest.targets.map(\.name) == ["Main"], "CORPUS_EXTRA is not set") }),
    ]

    /// What layering reads of a manifest, without places.
    struct Reading: Equatable, CustomStringConvertible {
        var text: [String]
        var description: String { text.joined(separator: "\n") }

        init(_ manifest: PackageManifest) {
            text = manifest.dependencies.map { "dependency \($0.path ?? "-") \($0.url ?? "-") \($0.requirement ?? "-") \($0.name ?? "-")" }
            text += manifest.products.map { "product \($0.name) \($0.targets) \($0.isDynamicLibrary) \($0.isExecutable) \($0.isPlugin)" }
            text += manifest.targets.map { "target \($0.name) \($0.kind) \($0.path ?? "-") \($0.dependencies.map(\.reference))" }
        }
    }

    private static func loader(cache: URL, swift: String? = nil) -> ManifestLoader {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache.path
        environment["CORPUS_EXTRA"] = nil
        if let swift { environment["COMPONENTCTL_SWIFT"] = swift }
        return ManifestLoader(environment: environment)
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-corpus-\(UUID().uuidString)/Packages/Feature")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: cases) func theToolReadsAManifestAsSwiftPMDoesOrLeavesItToSwiftPM(_ example: Case) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let bytes = Array(example.manifest.utf8)
        let loader = Self.loader(cache: folder.appendingPathComponent("cache"))
        let swiftPM = try loader.evaluatedBySwiftPM(bytes, folder: folder)
        // A manifest the static reader takes for broken is SwiftPM's to read, like one it is unsure of.
        let read = try? ManifestReader.read(bytes)
        #expect((read?.unresolved.isEmpty ?? false) == example.isStatic, "\(read?.unresolved ?? [])")
        if let read, read.unresolved.isEmpty {
            #expect(Reading(read) == Reading(swiftPM), "the static reader and SwiftPM disagree")
        }
        let loaded = try loader.load(bytes, folder: folder)
        #expect(loaded.isEvaluatedBySwiftPM == !example.isStatic)
        #expect(Reading(loaded) == Reading(swiftPM))
        example.check(loaded)
    }

    @Test func swiftPMIsAskedOncePerManifestTextAndToolchain() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let real = try #require(
            ProcessInfo.processInfo.environment["PATH"].flatMap { path in
                path.split(separator: ":").map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            })
        let log = folder.appendingPathComponent("calls.log")
        let logging = folder.appendingPathComponent("logging-swift")
        try Data("#!/bin/sh\necho \"$*\" >> '\(log.path)'\nexec '\(real)' \"$@\"\n".utf8).write(to: logging)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: logging.path)
        let loader = Self.loader(cache: folder.appendingPathComponent("cache"), swift: logging.path)
        let manifest = Array(Self.cases[3].manifest.utf8)
        let first = try loader.load(manifest, folder: folder)
        let second = try loader.load(manifest, folder: folder)
        #expect(Reading(first) == Reading(second))
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("dump-package") }
        #expect(calls.count == 1, "the second load uses the kept answer")
        _ = try loader.load(manifest + Array("\n// changed\n".utf8), folder: folder)
        let after = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("dump-package") }
        #expect(after.count == 2, "a changed text is evaluated again")
        // A failure is never kept on disk, but one process asks once, whoever reads the manifest again.
        let broken = Array("// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: helper())\n".utf8)
        for _ in 0..<2 { #expect(throws: ManifestError.self) { try loader.load(broken, folder: folder) } }
        let failed = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("dump-package") }
        #expect(failed.count == 3, "a failing manifest is evaluated once per process")
    }

    @Test func anEnvironmentVariableTheManifestReadsIsPartOfWhatIsKept() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let manifest = Array(try #require(Self.cases.first { $0.construct.contains("environment") }).manifest.utf8)
        var loader = Self.loader(cache: folder.appendingPathComponent("cache"))
        #expect(try loader.load(manifest, folder: folder).targets.map(\.name) == ["Main"])
        loader.environment["CORPUS_EXTRA"] = "1"
        #expect(try loader.load(manifest, folder: folder).targets.map(\.name) == ["Main", "Extra"])
    }

    @Test func aManifestSwiftPMCannotCompileIsAnErrorQuotingSwiftPM() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription
            func helper() -> [Target] { [.target(name: undefinedName)] }
            let package = Package(name: "Broken", targets: helper())
            """
        let loader = Self.loader(cache: folder.appendingPathComponent("cache"))
        let error = try #require(throws: ManifestError.self) { try loader.load(Array(manifest.utf8), folder: folder) }
        #expect(error.message.contains("SwiftPM cannot evaluate it"), "\(error.message)")
        #expect(error.message.contains("undefinedName"), "\(error.message)")
        #expect(error.message.contains("Package.swift:3:") && !error.message.contains("/tmp/"), "paths relative to the package: \(error.message)")
        #expect(error.location?.line == 3)
    }

    @Test(arguments: [
        ("6.0", #"targets: [.target(name: "Core", dependencies: [], fooBar: 1)]"#, "extra argument 'fooBar'"),
        ("6.0", #"targets: [.target("Core")]"#, "missing argument label 'name:'"),
        ("6.0", #"targets: [.target(name: "Core", dependencies: [.target(name: "Util", package: "x")])]"#, "extra argument 'package'"),
        ("6.0", #"targets: [.target(name: "Core")], products: [.library(name: "Core", targets: ["Core"])]"#, "must precede argument 'targets'"),
        ("6.0", #"targets: [.target(name: "Core", path: "Sources/Core", dependencies: [])]"#, "must precede argument 'path'"),
        ("5.8", #"targets: [.target(name: "Core", packageAccess: false)]"#, "packageAccess"),
        ("5.3", #"targets: [.executableTarget(name: "Core")]"#, "executableTarget"),
    ])
    func aManifestWhoseCallsTheStaticReaderReadsButSwiftPMRefusesIsAnErrorQuotingSwiftPM(toolsVersion: String, arguments: String, compiler: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let manifest = "// swift-tools-version:\(toolsVersion)\nimport PackageDescription\nlet package = Package(name: \"Core\", \(arguments))\n"
        #expect(try ManifestReader.read(Array(manifest.utf8)).unresolved.count == 1, "the reader is not sure of an argument it does not know")
        let loader = Self.loader(cache: folder.appendingPathComponent("cache"))
        let error = try #require(throws: ManifestError.self) { try loader.load(Array(manifest.utf8), folder: folder) }
        #expect(error.message.contains(compiler), "\(error.message)")
    }

    /// A package with a `Package.swift` and one version-specific manifest: the tools version each declares, and the
    /// version in the specific file's name.
    struct TwoManifests: CustomTestStringConvertible, Sendable {
        var regular: String
        var specificFile: String
        var specificDeclares: String
        var testDescription: String { "Package.swift \(regular), Package@swift-\(specificFile).swift declaring \(specificDeclares)" }
    }

    @Test(arguments: [
        TwoManifests(regular: "6.0", specificFile: "5.10", specificDeclares: "5.10"),
        TwoManifests(regular: "5.7", specificFile: "5.10", specificDeclares: "5.10"),
        TwoManifests(regular: "5.9", specificFile: "5.10", specificDeclares: "5.9"),
        TwoManifests(regular: "5.9", specificFile: "6", specificDeclares: "5.10"),
        TwoManifests(regular: "5.8", specificFile: "5", specificDeclares: "5.9"),
        TwoManifests(regular: "5.9", specificFile: "99", specificDeclares: "6.0"),
        // A file naming the toolchain's own version (6.3.1 here, as the test machine's) wins whatever it declares.
        TwoManifests(regular: "6.0", specificFile: "6.3", specificDeclares: "5.9"),
        TwoManifests(regular: "6.0", specificFile: "6", specificDeclares: "5.9"),
        TwoManifests(regular: "6.0", specificFile: "6.3.1", specificDeclares: "5.9"),
    ])
    func theManifestFileReadIsTheOneSwiftPMReads(_ example: TwoManifests) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        func write(_ file: String, toolsVersion: String, name: String) throws {
            let text = "// swift-tools-version:\(toolsVersion)\nimport PackageDescription\nlet package = Package(name: \"\(name)\")\n"
            try Data(text.utf8).write(to: folder.appendingPathComponent(file))
        }
        try write("Package.swift", toolsVersion: example.regular, name: "Regular")
        try write("Package@swift-\(example.specificFile).swift", toolsVersion: example.specificDeclares, name: "Specific")
        let dump = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "--package-path", folder.path, "dump-package"])
        let swiftPM = try #require(try JSONSerialization.jsonObject(with: dump.standardOutput) as? [String: Any])["name"] as? String
        let loaded = try Self.loader(cache: folder.appendingPathComponent("cache")).load(packageIn: folder)
        #expect(loaded.name == swiftPM)
    }

    @Test func theFolderOfAnEvaluationWhoseComponentctlWasKilledIsRemovedByTheNext() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let ended = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $$"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let temporary = FileManager.default.temporaryDirectory
        let left = temporary.appendingPathComponent("componentctl-manifest-\(ended)-left-by-a-kill/p/p")
        let living = temporary.appendingPathComponent("componentctl-manifest-1-of-a-living-process")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: living, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: living) }
        _ = try Self.loader(cache: folder.appendingPathComponent("cache")).evaluatedBySwiftPM(Array(Self.cases[0].manifest.utf8), folder: folder)
        #expect(!FileManager.default.fileExists(atPath: left.deletingLastPathComponent().deletingLastPathComponent().path))
        #expect(FileManager.default.fileExists(atPath: living.path), "pid 1 runs: its folder is kept")
    }
}
