// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CartInterface",
    products: [
        .library(name: "CartInterface", targets: ["CartInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "CartInterface", dependencies: ["Router", "Models"]),
        .testTarget(name: "CartInterfaceTests", dependencies: ["CartInterface", "Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
