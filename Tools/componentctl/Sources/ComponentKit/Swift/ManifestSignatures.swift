/// A PackageDescription function as the static reader checks a call of it: its argument labels in declaration order
/// (labels that are alternatives share a place; `nil` is an unlabelled argument), and the tools version it and some of
/// its arguments need. A call the signature does not allow is left to SwiftPM, which compiles it.
struct Signature: Sendable {
    var places: [[String?]]
    var since: [Int] = [0]
    var argumentSince: [String: [Int]] = [:]

    init(_ places: [[String?]], since: [Int] = [0], argumentSince: [String: [Int]] = [:]) {
        self.places = places
        self.since = since
        self.argumentSince = argumentSince
    }

    init(labels: [String], since: [Int] = [0], argumentSince: [String: [Int]] = [:]) {
        self.init(labels.map { [$0] }, since: since, argumentSince: argumentSince)
    }

    /// `Package(...)`.
    static let package = Signature(
        [
            ["name"], ["defaultLocalization"], ["platforms"], ["pkgConfig"], ["providers"], ["products"], ["traits"], ["dependencies"], ["targets"],
            ["swiftLanguageVersions", "swiftLanguageModes"], ["cLanguageStandard"], ["cxxLanguageStandard"],
        ],
        argumentSince: ["defaultLocalization": [5, 3], "traits": [6, 1], "swiftLanguageModes": [6, 0]])

    /// `.package(...)` of `dependencies:`.
    static let packageDependency = Signature(
        [["name"], ["url", "path", "id"], ["from", "exact", "revision", "branch", nil], ["traits"]], argumentSince: ["id": [5, 7], "traits": [6, 1]])

    /// Products by their function's name.
    static let products: [String: Signature] = [
        "library": Signature(labels: ["name", "type", "targets"]),
        "executable": Signature(labels: ["name", "targets"]),
        "plugin": Signature(labels: ["name", "targets"], since: [5, 5]),
    ]

    private static let common = ["resources": [5, 3], "packageAccess": [5, 9], "plugins": [5, 5]]

    /// Targets by their function's name.
    static let targets: [String: Signature] = [
        "target": Signature(
            labels: [
                "name", "dependencies", "path", "exclude", "sources", "resources", "publicHeadersPath", "packageAccess", "cSettings", "cxxSettings",
                "swiftSettings", "linkerSettings", "plugins",
            ], argumentSince: common),
        "executableTarget": Signature(
            labels: [
                "name", "dependencies", "path", "exclude", "sources", "resources", "publicHeadersPath", "packageAccess", "cSettings", "cxxSettings",
                "swiftSettings", "linkerSettings", "plugins",
            ], since: [5, 4], argumentSince: common),
        "testTarget": Signature(
            labels: [
                "name", "dependencies", "path", "exclude", "sources", "resources", "packageAccess", "cSettings", "cxxSettings", "swiftSettings",
                "linkerSettings", "plugins",
            ], argumentSince: common),
        "systemLibrary": Signature(labels: ["name", "path", "pkgConfig", "providers"]),
        "binaryTarget": Signature([["name"], ["path", "url"], ["checksum"]], since: [5, 3]),
        "plugin": Signature(
            labels: ["name", "capability", "dependencies", "path", "exclude", "sources", "packageAccess"], since: [5, 5], argumentSince: common),
        "macro": Signature(
            labels: ["name", "dependencies", "path", "exclude", "sources", "packageAccess", "swiftSettings", "linkerSettings", "plugins"], since: [5, 9]),
    ]

    /// Target dependencies by their function's name.
    static let targetDependencies: [String: Signature] = {
        let product = Signature(labels: ["name", "package", "moduleAliases", "condition"], argumentSince: ["moduleAliases": [5, 7], "condition": [5, 3]])
        let local = Signature(labels: ["name", "condition"], argumentSince: ["condition": [5, 3]])
        return ["product": product, "productItem": product, "target": local, "targetItem": local, "byName": local, "byNameItem": local]
    }()

    /// `.plugin(name:package:)` of a target's `plugins:`.
    static let pluginUsage = Signature(labels: ["name", "package"], since: [5, 5])
}
