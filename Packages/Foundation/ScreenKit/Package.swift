// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ScreenKit",
    products: [
        .library(name: "ScreenKit", targets: ["ScreenKit"]),
    ],
    targets: [
        .target(name: "ScreenKit"),
        .testTarget(name: "ScreenKitTests", dependencies: ["ScreenKit"]),
    ]
)
