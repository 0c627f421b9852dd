// swift-tools-version: 6.0
import PackageDescription

// BEGIN componentctl: components
let componentPackages: [Package.Dependency] = [
    .package(path: "Packages/Business/Shelf"),
    .package(path: "Packages/Business/Reader"),
]
let componentProducts: [Target.Dependency] = [
    .product(name: "Shelf", package: "Shelf"),
    .product(name: "Reader", package: "Reader"),
]
// END componentctl: components

let package = Package(
    name: "Library",
    products: [.executable(name: "App", targets: ["App"])],
    dependencies: componentPackages,
    targets: [
        .executableTarget(name: "App", dependencies: componentProducts, path: "App"),
        .testTarget(name: "AppTests", dependencies: [.product(name: "Shelf", package: "Shelf")]),
    ]
)
