// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Routing",
    products: [
        .library(name: "Routing", targets: ["Routing"]),
    ],
    targets: [
        .target(name: "Routing"),
        .testTarget(name: "RoutingTests", dependencies: ["Routing"]),
    ]
)
