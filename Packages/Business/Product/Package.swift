// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Product",
    products: [
        .library(name: "Product", targets: ["Product"]),
        .executable(name: "ProductDemo", targets: ["ProductDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "Product", dependencies: ["ProductInterface", "CartInterface", "Router", "ScreenKit", "Models"]),
        .executableTarget(name: "ProductDemo", dependencies: ["Product", "Router", "ScreenKit"]),
        .testTarget(name: "ProductTests", dependencies: ["Product", "ProductInterface", "CartInterface", "Router", "ScreenKit", "Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
