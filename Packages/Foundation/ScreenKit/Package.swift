// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ScreenKit",
    products: [
        .library(name: "ScreenKit", targets: ["ScreenKit"]),
        // For the App and runtime plugins only: both link this one shared copy, so types, services and
        // events cross the dlopen boundary. Components depend on "ScreenKit".
        .library(name: "ScreenKitDynamic", type: .dynamic, targets: ["ScreenKit"]),
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
