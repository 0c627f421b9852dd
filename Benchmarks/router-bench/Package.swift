// swift-tools-version: 6.0
import PackageDescription

// Benchmarks the Router against vapor/routing-kit's TrieRouter in one run. Its own package, so the
// Router component itself never depends on RoutingKit. malloc-interposer counts allocations when its
// library is preloaded (`make bench` does that for the allocation run).
// The folder has the package's name: one named like a component (Router) would give SwiftPM two packages of one identity.
let package = Package(
    name: "router-bench",
    dependencies: [
        .package(path: "../../Packages/Foundation/Router"),
        .package(url: "https://github.com/vapor/routing-kit", exact: "4.9.3"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "router-bench",
            dependencies: [
                "Router",
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        )
    ]
)
