// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Reviews",
    products: [
        .library(name: "Reviews", targets: ["Reviews"]),
        .executable(name: "ReviewsDemo", targets: ["ReviewsDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Core/Storage"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
    ],
    targets: [
        .target(name: "Reviews", dependencies: ["ProductInterface", "Storage", "Router", "ScreenKit"]),
        .executableTarget(
            name: "ReviewsDemo",
            dependencies: ["Reviews", "Storage", "Router", "ScreenKit", .product(name: "ProductInterfaceTestSupport", package: "ProductInterface")]
        ),
        .testTarget(
            name: "ReviewsTests",
            dependencies: [
                "Reviews", "ProductInterface", "Storage", "Router", "ScreenKit",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
