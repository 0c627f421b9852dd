// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Catalog",
    products: [
        .library(name: "Catalog", targets: ["Catalog"]),
    ],
    dependencies: [
        .package(path: "../Cache"),
        .package(path: "../../Foundation/Values"),
    ],
    targets: [
        .target(name: "Catalog", dependencies: ["Cache", "Values"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Values"]),
    ]
)
