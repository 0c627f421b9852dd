// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Router",
    products: [
        .library(name: "Router", targets: ["Router"]),
        // For the App and runtime plugins only: both link this one shared copy, so types, services and
        // events cross the dlopen boundary. Components depend on "Router".
        .library(name: "RouterDynamic", type: .dynamic, targets: ["Router"]),
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
