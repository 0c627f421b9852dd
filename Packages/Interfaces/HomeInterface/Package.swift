// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HomeInterface",
    products: [
        .library(name: "HomeInterface", targets: ["HomeInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
    ],
    targets: [
        .target(name: "HomeInterface", dependencies: ["Router"]),
        .testTarget(name: "HomeInterfaceTests", dependencies: ["HomeInterface"]),
    ]
)
