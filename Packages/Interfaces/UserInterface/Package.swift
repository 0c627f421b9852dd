// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "UserInterface",
    products: [
        .library(name: "UserInterface", targets: ["UserInterface"]),
        // Fakes and previews for tests and demos of the components that use UserInterface (never for the App).
        .library(name: "UserInterfaceTestSupport", targets: ["UserInterfaceTestSupport"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router")
    ],
    targets: [
        .target(name: "UserInterface", dependencies: ["Router"]),
        .target(name: "UserInterfaceTestSupport", dependencies: ["UserInterface"]),
        .testTarget(name: "UserInterfaceTests", dependencies: ["UserInterface", "UserInterfaceTestSupport"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
