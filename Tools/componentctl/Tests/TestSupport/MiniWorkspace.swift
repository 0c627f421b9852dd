import Foundation

extension Scratch {
    /// A small frozen workspace of its own, committed in a new git repository: a business component
    /// `feature` that depends on a foundation component `base`, and an integrated manifest. Tests of
    /// the tool's own behaviour use it, so they never depend on the sample a template user changes.
    public static func miniRepository() throws -> Scratch {
        let scratch = try Scratch(named: "mini")
        try scratch.write(
            "components.yaml",
            """
            # A frozen fixture of componentctl's tests.
            workspace:
              name: Mini
              scheme: mini

            layers: [business, core, foundation]

            rules:
              allow: []

            components:
              feature:
                path: Packages/Business/Feature
                layer: business
                version: 1.0.0
              base:
                path: Packages/Foundation/Base
                layer: foundation
                version: 1.0.0

            """)
        try scratch.write(
            "Packages/Foundation/Base/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Base",
                products: [.library(name: "Base", targets: ["Base"])],
                targets: [.target(name: "Base")]
            )

            """)
        try scratch.write("Packages/Foundation/Base/Sources/Base/Base.swift", "public struct Base: Sendable { public init() {} }\n")
        try scratch.write(
            "Packages/Business/Feature/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Feature",
                products: [.library(name: "Feature", targets: ["Feature"])],
                dependencies: [.package(path: "../../Foundation/Base")],
                targets: [.target(name: "Feature", dependencies: [.product(name: "Base", package: "Base")])]
            )

            """)
        try scratch.write("Packages/Business/Feature/Sources/Feature/Feature.swift", "import Base\n\npublic let feature = Base()\n")
        try scratch.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            // BEGIN componentctl: components
            let componentPackages: [Package.Dependency] = [
                .package(path: "Packages/Business/Feature"),
                .package(path: "Packages/Foundation/Base"),
            ]
            // END componentctl: components

            let package = Package(name: "Mini", dependencies: componentPackages)

            """)
        try scratch.write(".gitignore", ".build/\n.componentctl/\n.pin-*/\n")
        try scratch.commitAsNewRepository()
        return scratch
    }

    /// Every path under the root outside `.git` (folders too) but the workspace lock, sorted: what a
    /// command must leave as it found it, stray temporaries included.
    public func listing() throws -> [String] {
        try run("/usr/bin/find", [".", "-path", "./.git", "-prune", "-o", "-print"])
            .split(separator: "\n").map(String.init).filter { $0 != "./.componentctl/lock" && $0 != "./.componentctl" }.sorted()
    }
}
