// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Home",
    products: [
        .library(name: "Home", targets: ["Home"]),
        .executable(name: "HomeDemo", targets: ["HomeDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/HomeInterface"),
        .package(path: "../../Interfaces/ProductInterface"),
        .package(path: "../../Interfaces/CartInterface"),
        .package(path: "../../Interfaces/UserInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        .target(
            name: "Home",
            dependencies: [
                "HomeInterface", "ProductInterface", "CartInterface", "UserInterface", "Router", "ScreenKit", "Models",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/home-layout.json")]
        ),
        .executableTarget(name: "HomeDemo", dependencies: ["Home", "Router", "ScreenKit"]),
        .testTarget(
            name: "HomeTests",
            dependencies: [
                "Home", "HomeInterface", "ProductInterface", "CartInterface", "UserInterface", "Router", "ScreenKit", "Models",
                .product(name: "ProductInterfaceTestSupport", package: "ProductInterface"),
                .product(name: "CartInterfaceTestSupport", package: "CartInterface"),
                .product(name: "UserInterfaceTestSupport", package: "UserInterface"),
            ]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
