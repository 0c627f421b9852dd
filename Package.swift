// swift-tools-version: 6.0
import PackageDescription

// BEGIN componentctl: components
// Generated from components.yaml by `componentctl sync`; edit components.yaml or use `componentctl pin`, not this block.
// componentctl edits these lists line by line, so swift-format leaves them as they are.
// swift-format-ignore
let componentPackages: [Package.Dependency] = [
    .package(path: "Packages/Business/Cart"),
    .package(path: "Packages/Business/Home"),
    .package(path: "Packages/Business/Order"),
    .package(path: "Packages/Business/Product"),
    .package(path: "Packages/Business/User"),
    .package(path: "Packages/Core/RuntimePlugins"),
    .package(path: "Packages/Core/Session"),
    .package(path: "Packages/Core/Storage"),
    .package(path: "Packages/Foundation/LinkSigning"),
    .package(path: "Packages/Foundation/Models"),
    .package(path: "Packages/Foundation/PluginFeed"),
    .package(path: "Packages/Foundation/Router"),
    .package(path: "Packages/Foundation/ScreenKit"),
    .package(path: "Packages/Interfaces/HomeInterface"),
    .package(path: "Packages/Interfaces/ProductInterface"),
    .package(path: "Packages/Plugins/Recommendations"),
    .package(path: "Packages/Plugins/Reviews"),
    .package(path: "Packages/Plugins/ShippingEstimate"),
]
// swift-format-ignore
let componentProducts: [Target.Dependency] = [
    .product(name: "Cart", package: "Cart"),
    .product(name: "Home", package: "Home"),
    .product(name: "Order", package: "Order"),
    .product(name: "Product", package: "Product"),
    .product(name: "User", package: "User"),
    .product(name: "RuntimePlugins", package: "RuntimePlugins"),
    .product(name: "Session", package: "Session"),
    .product(name: "Storage", package: "Storage"),
    .product(name: "LinkSigning", package: "LinkSigning"),
    .product(name: "PluginFeed", package: "PluginFeed"),
    .product(name: "Router", package: "Router"),
    .product(name: "ScreenKit", package: "ScreenKit"),
    .product(name: "HomeInterface", package: "HomeInterface"),
    .product(name: "ProductInterface", package: "ProductInterface"),
    .product(name: "Recommendations", package: "Recommendations"),
    .product(name: "Reviews", package: "Reviews"),
    .product(name: "ShippingEstimate", package: "ShippingEstimate"),
]
// END componentctl: components

// The shared libraries runtime plugins link (each a package's `...Dynamic` product). Listing them makes
// the App export these modules' symbols, so a loaded plugin binds to the App's one copy of each; the
// components themselves stay statically linked. List here every `...Dynamic` product a runtime plugin
// depends on (check-layers' runtime-plugin-host reports a missing one). SHOP_PLUGIN_HOST=0 builds the
// App without them, for the start-up benchmark only: that App cannot load runtime plugins.
let pluginHostProducts: [Target.Dependency] =
    Context.environment["SHOP_PLUGIN_HOST"] == "0"
    ? []
    : [
        .product(name: "RouterDynamic", package: "Router"),
        .product(name: "ScreenKitDynamic", package: "ScreenKit"),
        .product(name: "ModelsDynamic", package: "Models"),
        .product(name: "ProductInterfaceDynamic", package: "ProductInterface"),
        .product(name: "HomeInterfaceDynamic", package: "HomeInterface"),
    ]

let package = Package(
    name: "Shop",
    products: [
        .executable(name: "App", targets: ["App"])
    ],
    dependencies: componentPackages,
    targets: [
        .target(
            name: "Shell", dependencies: componentProducts + pluginHostProducts, path: "App/Shell",
            resources: [.copy("Resources/degrade.json"), .copy("Resources/plugin-feed.json")]
        ),
        .executableTarget(name: "App", dependencies: ["Shell"], path: "App/Main"),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", "Shell", .product(name: "Router", package: "Router"), .product(name: "PluginFeed", package: "PluginFeed")],
            path: "Tests/AppTests",
            exclude: ["Fixtures"]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
