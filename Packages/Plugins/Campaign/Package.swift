// swift-tools-version: 6.0
import PackageDescription

// A runtime plugin: shipped apart from the App as a shared library and loaded with dlopen. It depends on
// the `...Dynamic` products, so that it and the App share one copy of each module.
let package = Package(
    name: "Campaign",
    products: [
        .library(name: "Campaign", type: .dynamic, targets: ["Campaign"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/HomeInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(
            name: "Campaign",
            dependencies: [
                .product(name: "ProductInterfaceDynamic", package: "ProductInterface"),
                .product(name: "HomeInterfaceDynamic", package: "HomeInterface"),
                .product(name: "RouterDynamic", package: "Router"),
                .product(name: "ScreenKitDynamic", package: "ScreenKit"),
                .product(name: "ModelsDynamic", package: "Models"),
            ]
        ),
        .testTarget(
            name: "CampaignTests",
            dependencies: [
                "Campaign", .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "ProductInterfaceDynamic", package: "ProductInterface"), .product(name: "RouterDynamic", package: "Router"),
                .product(name: "ScreenKitDynamic", package: "ScreenKit"), .product(name: "HomeInterfaceDynamic", package: "HomeInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
