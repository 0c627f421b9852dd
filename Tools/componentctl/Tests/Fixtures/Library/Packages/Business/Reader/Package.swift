// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Reader",
    products: [
        .library(name: "Reader", targets: ["Reader"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ReaderInterface"),
        .package(path: "../../Foundation/Routing"),
        .package(path: "../../Foundation/Kit"),
        .package(path: "../../Foundation/Values"),
    ],
    targets: [
        .target(name: "Reader", dependencies: ["ReaderInterface", "Routing", "Kit", "Values"]),
        .testTarget(name: "ReaderTests", dependencies: ["Reader", "Values"]),
    ]
)
