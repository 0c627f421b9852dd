// swift-tools-version: 6.0
import PackageDescription

// BEGIN componentctl: components
let componentPackages: [Package.Dependency] = [
    .package(path: "Packages/Business/Shelf"),
    .package(path: "Packages/Business/Reader"),
]
// END componentctl: components

let package = Package(
    name: "Library",
    products: [.executable(name: "App", targets: ["App"])],
    dependencies: componentPackages,
    targets: [
        .executableTarget(name: "App", dependencies: ["Shelf", "Reader"], path: "App"),
        .testTarget(name: "AppTests", dependencies: ["Shelf"]),
    ]
)
