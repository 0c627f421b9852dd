// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ShelfInterface",
    products: [
        .library(name: "ShelfInterface", targets: ["ShelfInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Routing"),
    ],
    targets: [
        .target(name: "ShelfInterface", dependencies: ["Routing"]),
    ]
)
