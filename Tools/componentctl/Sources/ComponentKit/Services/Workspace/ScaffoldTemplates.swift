/// The files `componentctl new` writes, in the workspace's house style.
struct Templates {
    let name: String
    let scheme: String
    /// The tools version and `platforms:` the repository's own manifests use, which a plain package follows.
    var style = ManifestStyle()

    private var host: String { Self.host(of: name) }

    /// The host of the first route a feature named `name` opens: `<scheme>://<host>`.
    static func host(of name: String) -> String { name.lowercased() }
    private var component: String { kebabCase(name) }

    func business(router: String, screens: String, interface: String) -> [String: String] {
        [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "\(name)",
                products: [
                    .library(name: "\(name)", targets: ["\(name)"]),
                    .executable(name: "\(name)Demo", targets: ["\(name)Demo"]),
                ],
                dependencies: [
                    .package(path: "\(interface)"),
                    .package(path: "\(router)"),
                    .package(path: "\(screens)"),
                ],
                targets: [
                    .target(name: "\(name)", dependencies: ["\(name)Interface", "Router", "ScreenKit"]),
                    .executableTarget(name: "\(name)Demo", dependencies: ["\(name)", "Router", "ScreenKit"]),
                    .testTarget(name: "\(name)Tests", dependencies: ["\(name)", "\(name)Interface", "Router", "ScreenKit"]),
                ]
            )

            // `public import` marks what a module's API exposes; every other import stays internal.
            for target in package.targets {
                target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
            }

            """,
            "Sources/\(name)/\(name)Module.swift": """
            public import Router
            import ScreenKit
            import \(name)Interface

            /// The \(name) component: registers its routes, services and subscriptions ("who provides, maintains").
            public struct \(name)Module: AppModule {
                public let name = "\(component)"

                /// Creates the module.
                public init() {}

                public func register(in context: ModuleContext) throws {
                    let service = Live\(name)Service()
                    try context.services.register((any \(name)Service).self, owner: name, instance: service)
                    try context.router.register(\(name)Route.Home.self, owner: name) { _, _ in
                        Screen(title: "\(name)", elements: [.text(try await service.summary())])
                    }
                }
            }

            /// What the component provides to others through ``\(name)Service``.
            struct Live\(name)Service: \(name)Service {
                func summary() async throws -> String { "\(name) is ready for its first feature." }
            }

            """,
            "Sources/\(name)Demo/main.swift": """
            // Runs the \(name) component alone, with stand-ins for what it does not own.
            import Router
            import ScreenKit
            import \(name)

            let router = Router()
            router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\\(request.url) belongs to another component.")]) }
            try \(name)Module().register(in: ModuleContext(router: router))
            let arguments = CommandLine.arguments.dropFirst()
            for url in arguments.isEmpty ? ["\(scheme)://\(host)"] : Array(arguments) {
                print("> \\(url)")
                print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
            }

            """,
            "Tests/\(name)Tests/\(name)Tests.swift": """
            import Router
            import ScreenKit
            import Testing
            import \(name)
            import \(name)Interface

            @Suite struct \(name)Tests {
                @Test func registersItsHomeRouteAndService() async throws {
                    let router = Router()
                    try \(name)Module().register(in: ModuleContext(router: router))
                    #expect(router.routes.map(\\.owner) == ["\(component)"])
                    let screen = try await router.open(try \(name)Route.Home().url(), as: Screen.self)
                    #expect(screen.title == "\(name)")
                    #expect(try await router.services.resolve((any \(name)Service).self).summary().contains("\(name)"))
                }
            }

            """,
            "README.md": """
            # \(name) (business)

            **Responsibility:** describe what \(name) does for the user.
            **Boundaries:** reaches other features only through their interfaces and the router.

            ## Public API
            `\(name)Module`.

            ## Routes it owns
            `\(scheme)://\(host)`.

            ## Demo
            `swift run --package-path <this folder> \(name)Demo [URL...]`

            """,
        ]
    }

    func interface(router: String) -> [String: String] {
        [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "\(name)Interface",
                products: [
                    .library(name: "\(name)Interface", targets: ["\(name)Interface"]),
                    // Fakes and previews for tests and demos of the components that use \(name)Interface (never for the App).
                    .library(name: "\(name)InterfaceTestSupport", targets: ["\(name)InterfaceTestSupport"]),
                ],
                dependencies: [.package(path: "\(router)")],
                targets: [
                    .target(name: "\(name)Interface", dependencies: ["Router"]),
                    .target(name: "\(name)InterfaceTestSupport", dependencies: ["\(name)Interface"]),
                    .testTarget(name: "\(name)InterfaceTests", dependencies: ["\(name)Interface", "\(name)InterfaceTestSupport"]),
                ]
            )

            // `public import` marks what a module's API exposes; every other import stays internal.
            for target in package.targets {
                target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
            }

            """,
            "Sources/\(name)Interface/\(name)Routes.swift": """
            public import Router

            /// The routes the \(name) component owns.
            public enum \(name)Route {
                /// \(name)'s first screen.
                public struct Home: Route, Equatable {
                    public static let pattern: RoutePattern = "\(scheme)://\(host)"
                    /// Creates the route.
                    public init() {}
                }
            }

            """,
            "Sources/\(name)Interface/\(name)Service.swift": """
            /// What other components may ask \(name). The \(name) component provides it; `async throws`, because
            /// in a real app it talks to a backend.
            public protocol \(name)Service: Sendable {
                /// One line about \(name)'s state, for other components' screens.
                func summary() async throws -> String
            }

            """,
            "Sources/\(name)InterfaceTestSupport/Stub\(name)Service.swift": """
            public import \(name)Interface

            /// A ``\(name)Service`` that answers what a test sets, for tests and demos of the components that use it.
            public struct Stub\(name)Service: \(name)Service {
                /// What ``summary()`` returns.
                public var summaryText: String

                /// A stub answering `summary`.
                public init(summary: String = "\(name) preview") {
                    summaryText = summary
                }

                public func summary() async throws -> String { summaryText }
            }

            """,
            "Tests/\(name)InterfaceTests/\(name)RouteTests.swift": """
            import Testing
            import \(name)Interface
            import \(name)InterfaceTestSupport

            @Suite struct \(name)RouteTests {
                @Test func homeRouteBuildsItsURL() throws {
                    #expect(try \(name)Route.Home().url() == "\(scheme)://\(host)")
                }

                @Test func theStubAnswersWhatItIsGiven() async throws {
                    #expect(try await Stub\(name)Service(summary: "3 items").summary() == "3 items")
                }
            }

            """,
            "README.md": """
            # \(name)Interface (business interface)

            **Responsibility:** what others may know of \(name): its routes, protocols and value types. Declarations only.
            **Boundaries:** depends on Router.

            ## Public API
            - `\(name)Route.Home` (`\(scheme)://\(host)`).
            - `\(name)Service`, provided by \(name).
            - `\(name)InterfaceTestSupport`: `Stub\(name)Service`, for tests and demos only (check-layers refuses it in a library).

            """,
        ]
    }

    func plain(layer: String) -> [String: String] {
        [
            "Package.swift": """
            \(style.toolsVersionLine)
            import PackageDescription

            let package = Package(
                name: "\(name)",\(style.platforms.map { "\n    \($0)," } ?? "")
                products: [.library(name: "\(name)", targets: ["\(name)"])],
                targets: [
                    .target(name: "\(name)"),
                    .testTarget(name: "\(name)Tests", dependencies: ["\(name)"]),
                ]
            )
            \(style.offersUpcomingFeatures ? internalImports : "")
            """,
            "Sources/\(name)/\(name).swift": """
            /// The \(name) service.
            public struct \(name): Sendable {
                /// Creates the service.
                public init() {}
            }

            """,
            "Tests/\(name)Tests/\(name)Tests.swift": """
            import Testing
            import \(name)

            @Suite struct \(name)Tests {
                @Test func exists() {
                    _ = \(name)()
                }
            }

            """,
            "README.md": """
            # \(name) (\(layer))

            **Responsibility:** describe what \(name) provides.
            **Boundaries:** depends only on lower layers.

            ## Public API
            `\(name)`.

            """,
        ]
    }

    /// The settings loop that makes imports internal unless marked `public import` (tools 5.8 and later offer it).
    private var internalImports: String {
        """

        // `public import` marks what a module's API exposes; every other import stays internal.
        for target in package.targets {
            target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
        }

        """
    }

    func plainInterface(layer: String) -> [String: String] {
        var files = Templates(name: name + "Interface", scheme: scheme, style: style).plain(layer: layer)
        files["README.md"] = "# \(name)Interface (\(layer) interface)\n\n**Responsibility:** the declarations others may use of \(name).\n"
        return files
    }
}

/// How a repository writes its manifests: what a new plain package copies so it builds where its siblings do.
struct ManifestStyle {
    /// The `swift-tools-version` most manifests declare.
    var toolsVersion = "6.0"
    /// The `platforms: [...]` most manifests declare, on one line; nil when most declare none.
    var platforms: String?

    /// The manifest's first line; without a space before the version below 5.4, which SwiftPM refuses there.
    var toolsVersionLine: String {
        let numbers = PackageManifest.toolsVersion(in: Array("// swift-tools-version:\(toolsVersion)".utf8))
        return "// swift-tools-version:" + (numbers.lexicographicallyPrecedes([5, 4]) ? "" : " ") + toolsVersion
    }

    /// Whether the tools version offers `.enableUpcomingFeature` (5.8 and later).
    var offersUpcomingFeatures: Bool {
        !PackageManifest.toolsVersion(in: Array("// swift-tools-version:\(toolsVersion)".utf8)).lexicographicallyPrecedes([5, 8])
    }

    /// The style most of `manifests` (their texts) share.
    init(of manifests: [[UInt8]] = []) {
        func mostCommon(_ values: [String?]) -> String? {
            let counts = Dictionary(values.map { ($0 ?? "", 1) }, uniquingKeysWith: +)
            return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { $0.key.isEmpty ? nil : $0.key }
        }
        let versions = manifests.map { PackageManifest.toolsVersion(in: $0) }.filter { $0 != [0, 0, 0] }
        if let version = mostCommon(versions.map { "\($0[0]).\($0[1])" + ($0[2] == 0 ? "" : ".\($0[2])") }) { toolsVersion = version }
        platforms = mostCommon(manifests.map(Self.platforms))
    }

    /// The manifest's `platforms: [...]`, whitespace made single spaces.
    static func platforms(in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            var lexer = SwiftLexer(buffer)
            var tokens: [SwiftToken] = []
            while let token = lexer.next() { tokens.append(token) }
            guard
                let start = tokens.indices.first(where: { index in
                    index + 2 < tokens.count && lexer.text(tokens[index].range) == "platforms" && lexer.text(tokens[index + 1].range) == ":"
                        && lexer.text(tokens[index + 2].range) == "["
                })
            else { return nil }
            var depth = 0
            for index in (start + 2)..<tokens.count {
                let text = lexer.text(tokens[index].range)
                if text == "[" || text == "(" { depth += 1 }
                if text == "]" || text == ")" { depth -= 1 }
                if depth == 0 {
                    let raw = String(decoding: buffer[tokens[start].range.lowerBound..<tokens[index].range.upperBound], as: UTF8.self)
                    return raw.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "[ ", with: "[")
                        .replacingOccurrences(of: ", ]", with: "]").replacingOccurrences(of: ",]", with: "]")
                }
            }
            return nil
        }
    }
}
