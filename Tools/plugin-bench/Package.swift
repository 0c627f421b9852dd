// swift-tools-version: 6.0
import PackageDescription

// Measures the product page as a plugin container (release): the page before its plugins against the page
// with them, each plugin's cost, and the allocations of a container's set-up per plugin. Its own package,
// so no component depends on the benchmark's tools.
let package = Package(
    name: "plugin-bench",
    dependencies: [
        .package(path: "../../Packages/Business/Product"),
        .package(path: "../../Packages/Interfaces/ProductInterface"),
        .package(path: "../../Packages/Interfaces/OrderInterface"),
        .package(path: "../../Packages/Interfaces/CartInterface"),
        .package(path: "../../Packages/Plugins/Reviews"),
        .package(path: "../../Packages/Plugins/Recommendations"),
        .package(path: "../../Packages/Plugins/ShippingEstimate"),
        .package(path: "../../Packages/Core/Storage"),
        .package(path: "../../Packages/Foundation/Router"),
        .package(path: "../../Packages/Foundation/ScreenKit"),
        .package(path: "../../Packages/Foundation/Models"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "plugin-bench",
            dependencies: [
                "Product", "ProductInterface", "OrderInterface", "CartInterface", "Reviews", "Recommendations", "ShippingEstimate", "Storage",
                "Router", "ScreenKit", "Models",
                .product(name: "OrderInterfaceTestSupport", package: "OrderInterface"),
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        )
    ]
)
