// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OrderInterface",
    products: [
        .library(name: "OrderInterface", targets: ["OrderInterface"]),
        // Fakes and previews for tests and demos of the components that use OrderInterface (never for the App).
        .library(name: "OrderInterfaceTestSupport", targets: ["OrderInterfaceTestSupport"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "OrderInterface", dependencies: ["Router", "Models"]),
        .target(name: "OrderInterfaceTestSupport", dependencies: ["OrderInterface"]),
        .testTarget(name: "OrderInterfaceTests", dependencies: ["OrderInterface", "OrderInterfaceTestSupport", "Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
