// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CartInterface",
    products: [
        .library(name: "CartInterface", targets: ["CartInterface"]),
        // Fakes and previews for tests and demos of the components that use CartInterface (never for the App).
        .library(name: "CartInterfaceTestSupport", targets: ["CartInterfaceTestSupport"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "CartInterface", dependencies: ["Router", "Models"]),
        .target(name: "CartInterfaceTestSupport", dependencies: ["CartInterface", "Models"]),
        .testTarget(name: "CartInterfaceTests", dependencies: ["CartInterface", "CartInterfaceTestSupport", "Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
