// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Router",
    products: [
        .library(name: "Router", targets: ["Router"]),
    ],
    targets: [
        .target(name: "Router"),
        .testTarget(name: "RouterTests", dependencies: ["Router"]),
    ]
)
