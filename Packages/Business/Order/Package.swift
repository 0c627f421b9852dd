// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Order",
    products: [
        .library(name: "Order", targets: ["Order"]),
        .executable(name: "OrderDemo", targets: ["OrderDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/OrderInterface"),
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Interfaces/UserInterface"),
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
        .package(path: "../../Core/Storage"),
    ],
    targets: [
        .target(
            name: "Order", dependencies: ["OrderInterface", "CartInterface", "UserInterface", "ProductInterface", "Router", "ScreenKit", "Models", "Storage"]),
        .executableTarget(
            name: "OrderDemo",
            dependencies: [
                "Order", "CartInterface", "UserInterface", "Router", "ScreenKit", "Models", "Storage",
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"), .product(name: "UserInterfaceTestSupport", package: "UserInterface"),
            ]
        ),
        .testTarget(
            name: "OrderTests",
            dependencies: [
                "Order", "OrderInterface", "CartInterface", "UserInterface", "Router", "ScreenKit", "Models", "Storage",
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"), .product(name: "UserInterfaceTestSupport", package: "UserInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
