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
        .package(path: "../../Interfaces/OrderInterface"),
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/ScreenKit"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "Home", dependencies: ["HomeInterface", "ProductInterface", "CartInterface", "UserInterface", "OrderInterface", "Router", "ScreenKit", "Models"]),
        .executableTarget(name: "HomeDemo", dependencies: ["Home", "HomeInterface", "ProductInterface", "CartInterface", "UserInterface", "OrderInterface", "Router", "ScreenKit", "Models"]),
        .testTarget(name: "HomeTests", dependencies: ["Home", "HomeInterface", "ProductInterface", "CartInterface", "UserInterface", "OrderInterface", "Router", "ScreenKit", "Models"]),
    ]
)
