// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Values",
    products: [
        .library(name: "Values", targets: ["Values"]),
    ],
    targets: [
        .target(name: "Values"),
        .testTarget(name: "ValuesTests", dependencies: ["Values"]),
    ]
)
