// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HomeInterface",
    products: [
        .library(name: "HomeInterface", targets: ["HomeInterface"]),
        // For the App and runtime plugins only: both link this one shared copy, so types, services and
        // events cross the dlopen boundary. Components depend on "HomeInterface".
        .library(name: "HomeInterfaceDynamic", type: .dynamic, targets: ["HomeInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router")
    ],
    targets: [
        .target(name: "HomeInterface", dependencies: ["Router"]),
        .testTarget(name: "HomeInterfaceTests", dependencies: ["HomeInterface"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
