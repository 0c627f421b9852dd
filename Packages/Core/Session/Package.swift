// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Session",
    products: [
        .library(name: "Session", targets: ["Session"])
    ],
    dependencies: [
        .package(path: "../Storage")
    ],
    targets: [
        .target(name: "Session", dependencies: ["Storage"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Storage"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
