// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "UserInterface",
    products: [
        .library(name: "UserInterface", targets: ["UserInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
    ],
    targets: [
        .target(name: "UserInterface", dependencies: ["Router"]),
        .testTarget(name: "UserInterfaceTests", dependencies: ["UserInterface"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
