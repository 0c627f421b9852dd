// swift-tools-version: 6.0
import PackageDescription

// Measures a feature's page as a plugin container (release): the page before its plugins against the page
// with them, each plugin's cost, and the allocations of a container's set-up per plugin. The page and its
// plugins are the benchmark's own, so it depends on the framework's packages only and any workspace keeps it.
// The folder has the package's name: one named like a component (Router) would give SwiftPM two packages of one identity.
let package = Package(
    name: "plugin-bench",
    dependencies: [
        .package(path: "../../Packages/Core/Storage"),
        .package(path: "../../Packages/Foundation/Router"),
        .package(path: "../../Packages/Foundation/ScreenKit"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "plugin-bench",
            dependencies: [
                "Storage", "Router", "ScreenKit",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        )
    ]
)
