// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ReaderInterface",
    products: [
        .library(name: "ReaderInterface", targets: ["ReaderInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Routing"),
        .package(path: "../../Foundation/Values"),
    ],
    targets: [
        .target(name: "ReaderInterface", dependencies: ["Routing", "Values"]),
    ]
)
