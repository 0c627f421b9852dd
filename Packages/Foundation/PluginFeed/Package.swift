// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PluginFeed",
    products: [
        .library(name: "PluginFeed", targets: ["PluginFeed"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3")
    ],
    targets: [
        .target(name: "PluginFeed", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PluginFeedTests", dependencies: ["PluginFeed"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
