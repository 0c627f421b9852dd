// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Models",
    products: [
        .library(name: "Models", targets: ["Models"]),
        // For the App and runtime plugins only: both link this one shared copy, so types, services and
        // events cross the dlopen boundary. Components depend on "Models".
        .library(name: "ModelsDynamic", type: .dynamic, targets: ["Models"]),
    ],
    targets: [
        .target(name: "Models"),
        .testTarget(name: "ModelsTests", dependencies: ["Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
