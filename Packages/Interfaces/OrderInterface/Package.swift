// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "OrderInterface",
    products: [
        .library(name: "OrderInterface", targets: ["OrderInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "OrderInterface", dependencies: ["Router", "Models"]),
        .testTarget(name: "OrderInterfaceTests", dependencies: ["OrderInterface"]),
    ]
)
