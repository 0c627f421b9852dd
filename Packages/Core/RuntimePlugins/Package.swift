// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "RuntimePlugins",
    products: [
        .library(name: "RuntimePlugins", targets: ["RuntimePlugins"])
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/PluginFeed"),
    ],
    targets: [
        .target(name: "CPluginHost", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "RuntimePlugins", dependencies: ["CPluginHost", "Router", "PluginFeed"]),
        .testTarget(name: "RuntimePluginsTests", dependencies: ["RuntimePlugins", "PluginFeed", "Router"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets where target.name != "CPluginHost" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
