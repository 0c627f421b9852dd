// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ScreenKit",
    products: [
        .library(name: "ScreenKit", targets: ["ScreenKit"])
    ],
    targets: [
        .target(name: "ScreenKit"),
        .testTarget(name: "ScreenKitTests", dependencies: ["ScreenKit"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
