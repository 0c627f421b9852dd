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
    .package(path: "Packages/Core/Storage"),
    .package(path: "Packages/Foundation/PluginFeed"),
    .package(path: "Packages/Foundation/Router"),
    .package(path: "Packages/Foundation/ScreenKit"),
    .package(path: "Packages/Interfaces/HomeInterface"),
    .package(path: "Packages/Interfaces/ProductInterface"),
    .package(path: "Packages/Plugins/Recommendations"),
    .package(path: "Packages/Plugins/Reviews"),
    .package(path: "Packages/Plugins/ShippingEstimate"),
    .package(path: "Packages/Foundation/Models"),
]
// END componentctl: components

// BEGIN componentctl: apps
// Generated from components.yaml's `apps:` by `componentctl sync`; edit components.yaml, not this block.
// The workspace's name and the prefix of its apps' settings (components.yaml's `workspace:`).
let workspaceName = "Shop"
let settingsPrefix = "SHOP"
// The shell links what its sources import; each app links its components' modules on top.
// swift-format-ignore
let shellProducts: [Target.Dependency] = [
    .product(name: "PluginFeed", package: "PluginFeed"),
    .product(name: "Router", package: "Router"),
    .product(name: "RuntimePlugins", package: "RuntimePlugins"),
    .product(name: "ScreenKit", package: "ScreenKit"),
    .product(name: "Storage", package: "Storage"),
]
// swift-format-ignore
let appTargets: [Target] = [
    .executableTarget(name: "Shop", dependencies: ["Shell", .product(name: "Cart", package: "Cart"), .product(name: "Home", package: "Home"), .product(name: "Order", package: "Order"), .product(name: "Product", package: "Product"), .product(name: "ProductInterface", package: "ProductInterface"), .product(name: "Recommendations", package: "Recommendations"), .product(name: "Reviews", package: "Reviews"), .product(name: "Router", package: "Router"), .product(name: "ShippingEstimate", package: "ShippingEstimate"), .product(name: "User", package: "User")], path: "App/shop"),
    .executableTarget(name: "ShopLite", dependencies: ["Shell", .product(name: "Cart", package: "Cart"), .product(name: "Home", package: "Home"), .product(name: "Product", package: "Product"), .product(name: "ProductInterface", package: "ProductInterface"), .product(name: "Reviews", package: "Reviews"), .product(name: "Router", package: "Router")], path: "App/shop-lite"),
]
// swift-format-ignore
let appProducts: [Product] = [
    .executable(name: "Shop", targets: ["Shop"]),
    .executable(name: "ShopLite", targets: ["ShopLite"]),
]
// The app targets, for the tests that drive them.
// swift-format-ignore
let appTargetDependencies: [Target.Dependency] = [
    .target(name: "Shop"),
    .target(name: "ShopLite"),
]
// The shared libraries the workspace's runtime plugins link: the apps link them too, so a loaded plugin
// binds to the app's one copy of each module.
// swift-format-ignore
let runtimePluginLibraries: [Target.Dependency] = [
    .product(name: "HomeInterfaceDynamic", package: "HomeInterface"),
    .product(name: "ModelsDynamic", package: "Models"),
    .product(name: "ProductInterfaceDynamic", package: "ProductInterface"),
    .product(name: "RouterDynamic", package: "Router"),
    .product(name: "ScreenKitDynamic", package: "ScreenKit"),
]
// END componentctl: apps

// The App without the shared libraries runtime plugins link (`runtimePluginLibraries`, written by
// `componentctl sync`), for the start-up benchmark only: <PREFIX>_PLUGIN_HOST=0 builds an App that cannot load
// runtime plugins. The components themselves stay statically linked either way.
let pluginHostProducts: [Target.Dependency] = Context.environment[settingsPrefix + "_PLUGIN_HOST"] == "0" ? [] : runtimePluginLibraries

// Packages from outside the workspace the shell uses: swift-log, whose `Logger` every component may log
// through (the App sets the handler: one line per message on standard error, <PREFIX>_LOG chooses the level).
let externalPackages: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    // The shell's command line: parsed as componentctl's is.
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
]

let package = Package(
    name: workspaceName,
    // Each app of components.yaml is an executable; the shell they share is a library, so a throw-away
    // app (`componentctl run --focus`) can be built beside the workspace.
    products: appProducts + [.library(name: "Shell", targets: ["Shell"])],
    dependencies: componentPackages + externalPackages,
    targets: appTargets + [
        .target(
            name: "Shell",
            dependencies: shellProducts + pluginHostProducts + [
                .product(name: "Logging", package: "swift-log"), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "App/Shell",
            resources: [
                .copy("Resources/degrade.json"), .copy("Resources/plugin-feed.json"), .copy("Resources/remote-config.json"), .copy("Resources/link-keys.json"),
            ]
        ),
        .testTarget(
            name: "AppTests",
            dependencies: appTargetDependencies + [
                "Shell", .product(name: "Router", package: "Router"), .product(name: "ScreenKit", package: "ScreenKit"),
                .product(name: "PluginFeed", package: "PluginFeed"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/AppTests",
            exclude: ["Fixtures"]
        ),
    ]
)

// `public import` marks what a module's API exposes; every other import stays internal.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
