// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ShippingEstimate",
    products: [
        .library(name: "ShippingEstimate", targets: ["ShippingEstimate"]),
        .executable(name: "ShippingEstimateDemo", targets: ["ShippingEstimateDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "ShippingEstimate", dependencies: ["ProductInterface", "CartInterface", "Router", "ScreenKit", "Models"]),
        .executableTarget(
            name: "ShippingEstimateDemo",
            dependencies: [
                "ShippingEstimate", "Router", "ScreenKit", "CartInterface",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"),
            ]
        ),
        .testTarget(
            name: "ShippingEstimateTests",
            dependencies: [
                "ShippingEstimate", "ProductInterface", "CartInterface", "Router", "ScreenKit",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
