// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Shelf",
    products: [
        .library(name: "Shelf", targets: ["Shelf"]),
        .executable(name: "ShelfDemo", targets: ["ShelfDemo"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShelfInterface"),
        .package(path: "../../Interfaces/ReaderInterface"),
        .package(path: "../../Core/Catalog"),
        .package(path: "../../Foundation/Routing"),
        .package(path: "../../Foundation/Kit"),
    ],
    targets: [
        .target(name: "Shelf", dependencies: ["ShelfInterface", "ReaderInterface", "Catalog", "Routing", "Kit"]),
        .executableTarget(name: "ShelfDemo", dependencies: ["Shelf", "Routing"]),
        .testTarget(name: "ShelfTests", dependencies: ["Shelf", .product(name: "ReaderInterfaceTestSupport", package: "ReaderInterface")]),
    ]
)
