// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Router",
    products: [
        .library(name: "Router", targets: ["Router"])
    ],
    targets: [
        .target(name: "Router"),
        .testTarget(name: "RouterTests", dependencies: ["Router"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
