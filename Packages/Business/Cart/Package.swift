// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Cart",
    products: [
        .library(name: "Cart", targets: ["Cart"]),
        .executable(name: "CartDemo", targets: ["CartDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/OrderInterface"),
        .package(path: "../../Interfaces/HomeInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
        .package(path: "../../Core/Storage"),
    ],
    targets: [
        .target(
            name: "Cart", dependencies: ["CartInterface", "ProductInterface", "OrderInterface", "HomeInterface", "Router", "ScreenKit", "Models", "Storage"]
        ),
        .executableTarget(
            name: "CartDemo",
            dependencies: [
                "Cart", "ProductInterface", "Router", "ScreenKit", "Storage", .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
            ]
        ),
        .testTarget(
            name: "CartTests",
            dependencies: [
                "Cart", "CartInterface", "HomeInterface", "ProductInterface", "OrderInterface", "Router", "ScreenKit", "Models", "Storage",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
