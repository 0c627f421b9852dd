// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "UserInterface",
    products: [
        .library(name: "UserInterface", targets: ["UserInterface"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Router"),
    ],
    targets: [
        .target(name: "UserInterface", dependencies: ["Router"]),
        .testTarget(name: "UserInterfaceTests", dependencies: ["UserInterface"]),
    ]
)
