// swift-tools-version: 6.0
import PackageDescription

// componentctl has its own package so it builds even when the workspace does not
// (a pinned checkout missing, a broken component).
let package = Package(
    name: "componentctl",
    products: [
        .executable(name: "componentctl", targets: ["componentctl"]),
        .library(name: "ComponentKit", targets: ["ComponentKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The runtime plugin feed's formats and signatures, shared with the App so both read them alike.
        .package(path: "../../Packages/Foundation/PluginFeed"),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .target(name: "ComponentKit", dependencies: ["CYAML", "CGit2", "PluginFeed"]),
        .executableTarget(
            name: "componentctl",
            dependencies: ["ComponentKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "TestSupport", dependencies: ["ComponentKit", "PluginFeed"], path: "Tests/TestSupport"),
        .testTarget(name: "ComponentKitTests", dependencies: ["ComponentKit", "TestSupport", "PluginFeed"]),
        .testTarget(name: "componentctlTests", dependencies: ["componentctl", "TestSupport", "PluginFeed"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
