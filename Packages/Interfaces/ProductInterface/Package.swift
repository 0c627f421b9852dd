// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ProductInterface",
    products: [
        .library(name: "ProductInterface", targets: ["ProductInterface"]),
        // For the App and runtime plugins only: both link this one shared copy, so types, services and
        // events cross the dlopen boundary. Components depend on "ProductInterface".
        .library(name: "ProductInterfaceDynamic", type: .dynamic, targets: ["ProductInterface"]),
        // Fakes and previews for tests and demos of the components that use ProductInterface (never for the App).
        .library(name: "ProductInterfaceTestSupport", targets: ["ProductInterfaceTestSupport"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
        .package(path: "../../Foundation/ScreenKit"),
    ],
    targets: [
        .target(name: "ProductInterface", dependencies: ["Router", "Models", "ScreenKit"]),
        .target(name: "ProductInterfaceTestSupport", dependencies: ["ProductInterface", "Models", "Router", "ScreenKit"]),
        .testTarget(name: "ProductInterfaceTests", dependencies: ["ProductInterface", "ProductInterfaceTestSupport", "Router"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
