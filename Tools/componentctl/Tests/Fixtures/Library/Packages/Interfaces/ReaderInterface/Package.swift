// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ReaderInterface",
    products: [
        .library(name: "ReaderInterface", targets: ["ReaderInterface"]),
        .library(name: "ReaderInterfaceTestSupport", targets: ["ReaderInterfaceTestSupport"]),
    ],
    dependencies: [
        .package(path: "../../Foundation/Routing"),
        .package(path: "../../Foundation/Values"),
    ],
    targets: [
        .target(name: "ReaderInterface", dependencies: ["Routing", "Values"]),
        .target(name: "ReaderInterfaceTestSupport", dependencies: ["ReaderInterface", "Values"]),
    ]
)
