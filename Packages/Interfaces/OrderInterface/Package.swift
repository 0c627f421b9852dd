// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OrderInterface",
    products: [
        .library(name: "OrderInterface", targets: ["OrderInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "OrderInterface", dependencies: ["Router", "Models"]),
        .testTarget(name: "OrderInterfaceTests", dependencies: ["OrderInterface"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
