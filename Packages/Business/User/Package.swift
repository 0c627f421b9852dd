// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "User",
    products: [
        .library(name: "User", targets: ["User"]),
        .executable(name: "UserDemo", targets: ["UserDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/UserInterface"),
        .package(path: "../../Interfaces/OrderInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Core/Session"),
        .package(path: "../../Core/Storage"),
    ],
    targets: [
        .target(name: "User", dependencies: ["UserInterface", "OrderInterface", "Router", "ScreenKit", "Session", "Storage"]),
        .executableTarget(name: "UserDemo", dependencies: ["User", "Router", "ScreenKit", "Session", "Storage"]),
        .testTarget(name: "UserTests", dependencies: ["User", "UserInterface", "Router", "ScreenKit", "Session", "Storage"]),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
