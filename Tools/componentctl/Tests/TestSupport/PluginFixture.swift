import Foundation

extension Scratch {
    /// The fixture workspace with plugins, for the static checks of the plugin model (its plugin packages
    /// use the fixture's stand-in router, so they are read, never built): `shelf-interface` declares the
    /// extension point `shelf-interface/badges` (with a plugin template), and two plugins extend it,
    /// `ribbon` (settings `label` string, `size` int) and `stamp`, declared in that order with `stamp`
    /// disabled. One app, `reading-room`, holds shelf, reader and both plugins.
    public static func pluginFixture() throws -> Scratch {
        let scratch = try fixture()
        try scratch.addPlugins()
        try scratch.declareApps("  reading-room:\n    components: [shelf, reader, ribbon, stamp]\n")
        return scratch
    }

    /// The plugin fixture with `stamp` shipped at run time (`runtime: true`, a dynamic library, in no app and
    /// under no point's declarations).
    public static func runtimePluginFixture() throws -> Scratch {
        let scratch = try pluginFixture()
        try scratch.replace(
            in: "components.yaml", "    extends: shelf-interface/badges\n    version: 1.0.0\n\n  shelf-interface:",
            with: "    extends: shelf-interface/badges\n    runtime: true\n    version: 1.0.0\n\n  shelf-interface:")
        try scratch.replace(in: "components.yaml", "    - plugin: stamp\n      enabled: false\n", with: "")
        try scratch.replace(in: "components.yaml", "[shelf, reader, ribbon, stamp]", with: "[shelf, reader, ribbon]")
        try scratch.replace(
            in: "Packages/Plugins/Stamp/Package.swift", #"products: [.library(name: "Stamp", targets: ["Stamp"])]"#,
            with: #"products: [.library(name: "Stamp", type: .dynamic, targets: ["Stamp"])]"#)
        return scratch
    }

    /// The plugin fixture committed as a new git repository.
    public static func pluginFixtureRepository() throws -> Scratch {
        let scratch = try pluginFixture()
        try scratch.commitAsNewRepository()
        return scratch
    }

    private func addPlugins() throws {
        try write(
            "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/ShelfBadges.swift",
            """
            public import Routing

            /// The shelf's badges: each plugin may add a badge to a book.
            public enum ShelfBadges: ExtensionPoint {
                public static let id: ExtensionPointID = "shelf-interface/badges"
                public typealias Plugin = any BadgePlugin
            }

            /// A plugin of the shelf's badges.
            public protocol BadgePlugin: ContainerPlugin {
                func badge(for book: String) -> String?
            }

            """)
        let template = "Packages/Interfaces/ShelfInterface/PluginTemplates/badges"
        try write(
            template + "/Package.swift.template",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "__Name__",
                products: [.library(name: "__Name__", targets: ["__Name__"])],
                dependencies: [
                    .package(path: "__root__Packages/Interfaces/ShelfInterface"),
                    .package(path: "__root__Packages/Foundation/Routing"),
                ],
                targets: [.target(name: "__Name__", dependencies: ["ShelfInterface", "Routing"])]
            )

            """)
        try write(
            template + "/Sources/__Name__/__Name__Plugin.swift.template",
            """
            public import Routing
            public import ShelfInterface

            /// The __id__ badge (at __path__).
            public enum __Name__Plugin: PluginDefinition {
                public typealias Point = ShelfBadges
                public static let id = "__id__"
                public static let settings: PluginSchema = ["label": .string]
            }

            """)
        try plugin("Ribbon", id: "ribbon", settings: #"["label": .string, "size": .int]"#, extra: ("Values", "../../Foundation/Values"))
        try plugin("Stamp", id: "stamp", settings: "[:]")
        try replace(
            in: "components.yaml", "\n  shelf-interface:",
            with: """

                  ribbon:
                    path: Packages/Plugins/Ribbon
                    layer: business
                    kind: plugin
                    extends: shelf-interface/badges
                    version: 1.0.0
                  stamp:
                    path: Packages/Plugins/Stamp
                    layer: business
                    kind: plugin
                    extends: shelf-interface/badges
                    version: 1.0.0

                  shelf-interface:
                """)
        let yaml = try read("components.yaml")
        try write(
            "components.yaml",
            yaml + """

                # Which plugins each extension point gets, in order.
                plugins:
                  shelf-interface/badges:
                    - plugin: ribbon
                      settings:
                        label: New
                        size: 2
                    - plugin: stamp
                      enabled: false

                """)
    }

    private func plugin(_ name: String, id: String, settings: String, extra: (module: String, path: String)? = nil) throws {
        let folder = "Packages/Plugins/\(name)"
        let extraPackage = extra.map { "\n        .package(path: \"\($0.path)\")," } ?? ""
        let extraTarget = extra.map { ", \"\($0.module)\"" } ?? ""
        try write(
            folder + "/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "\(name)",
                products: [.library(name: "\(name)", targets: ["\(name)"])],
                dependencies: [
                    .package(path: "../../Interfaces/ShelfInterface"),
                    .package(path: "../../Foundation/Routing"),\(extraPackage)
                ],
                targets: [.target(name: "\(name)", dependencies: ["ShelfInterface", "Routing"\(extraTarget)])]
            )

            """)
        let extraImport = extra.map { "import \($0.module)\n" } ?? ""
        try write(
            folder + "/Sources/\(name)/\(name)Plugin.swift",
            """
            public import Routing
            public import ShelfInterface
            \(extraImport)
            /// The \(id) badge.
            public enum \(name)Plugin: PluginDefinition {
                public typealias Point = ShelfBadges
                public static let id = "\(id)"
                public static let settings: PluginSchema = \(settings)
            }

            """)
    }

    /// Adds the runtime plugin component `name` (a dynamic library of one target whose only file is `source`,
    /// extending the fixture's `shelf-interface/badges`) to components.yaml and the folder `Packages/Plugins/NAME`.
    public func addRuntimePlugin(_ name: String, source: String) throws {
        try write(
            "Packages/Plugins/\(name)/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "\(name)",
                products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
                targets: [.target(name: "\(name)")]
            )
            """)
        try write("Packages/Plugins/\(name)/Sources/\(name)/\(name).swift", source)
        try replace(
            in: "components.yaml", "\n  shelf-interface:",
            with: """

                  \(name.lowercased()):
                    path: Packages/Plugins/\(name)
                    layer: business
                    kind: plugin
                    extends: shelf-interface/badges
                    runtime: true
                    version: 1.0.0

                  shelf-interface:
                """)
    }

}
