// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ProductInterface",
    products: [
        .library(name: "ProductInterface", targets: ["ProductInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
        .package(path: "../../Foundation/Models"),
    ],
    targets: [
        .target(name: "ProductInterface", dependencies: ["Router", "Models"]),
        .testTarget(name: "ProductInterfaceTests", dependencies: ["ProductInterface", "Router"]),
    ]
)
