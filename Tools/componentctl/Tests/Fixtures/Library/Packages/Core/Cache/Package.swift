// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Cache",
    products: [
        .library(name: "Cache", targets: ["Cache"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Values"),
    ],
    targets: [
        .target(name: "Cache", dependencies: ["Values"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Values"]),
    ]
)
