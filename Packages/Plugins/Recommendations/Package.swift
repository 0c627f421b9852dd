// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Recommendations",
    products: [
        .library(name: "Recommendations", targets: ["Recommendations"]),
        .executable(name: "RecommendationsDemo", targets: ["RecommendationsDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/OrderInterface"),
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "Recommendations", dependencies: ["ProductInterface", "OrderInterface", "CartInterface", "Router", "ScreenKit"]),
        .executableTarget(
            name: "RecommendationsDemo",
            dependencies: [
                "Recommendations", "Router", "ScreenKit", "ProductInterface", "OrderInterface", "Models",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "OrderInterfaceTestSupport", package: "OrderInterface"),
            ]
        ),
        .testTarget(
            name: "RecommendationsTests",
            dependencies: [
                "Recommendations", "ProductInterface", "OrderInterface", "CartInterface", "Router", "ScreenKit", "Models",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "OrderInterfaceTestSupport", package: "OrderInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
