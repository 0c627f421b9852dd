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
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        .target(
            name: "Product",
            dependencies: ["ProductInterface", "CartInterface", "Router", "ScreenKit", "Models", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "ProductDemo", dependencies: ["Product", "Router", "ScreenKit"]),
        .testTarget(name: "ProductTests", dependencies: ["Product", "ProductInterface", "CartInterface", "Router", "ScreenKit", "Models"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
