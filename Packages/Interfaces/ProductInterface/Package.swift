// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ProductInterface",
    products: [
        .library(name: "ProductInterface", targets: ["ProductInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "ProductInterface", dependencies: ["Router", "Models"]),
        .testTarget(name: "ProductInterfaceTests", dependencies: ["ProductInterface", "Router"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
