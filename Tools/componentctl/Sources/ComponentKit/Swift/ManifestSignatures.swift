/// A PackageDescription function as the static reader checks a call of it: its argument labels in declaration order
/// (labels that are alternatives share a place; `nil` is an unlabelled argument), and the tools version it and some of
/// its arguments need. A call the signature does not allow is left to SwiftPM, which compiles it.
struct Signature: Sendable {
    var places: [[String?]]
    /// The places a call must fill (by one of their labels).
    var required: Set<Int>
    var since: [Int] = [0]
    var argumentSince: [String: [Int]] = [:]

    init(_ places: [[String?]], required: [String?] = ["name"], since: [Int] = [0], argumentSince: [String: [Int]] = [:]) {
        self.places = places
        self.required = Set(required.compactMap { label in places.firstIndex { $0.contains(label) } })
        self.since = since
        self.argumentSince = argumentSince
    }

    init(labels: [String], required: [String?] = ["name"], since: [Int] = [0], argumentSince: [String: [Int]] = [:]) {
        self.init(labels.map { [$0] }, required: required, since: since, argumentSince: argumentSince)
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
        [["name"], ["url", "path", "id"], ["from", "exact", "revision", "branch", nil], ["traits"]], required: ["path"],
        argumentSince: ["name": [5, 2], "id": [5, 7], "branch": [5, 5], "revision": [5, 5], "exact": [5, 6], "traits": [6, 1]])

    /// Products by their function's name.
    static let products: [String: Signature] = [
        "library": Signature(labels: ["name", "type", "targets"], required: ["name", "targets"]),
        "executable": Signature(labels: ["name", "targets"], required: ["name", "targets"]),
        "plugin": Signature(labels: ["name", "targets"], required: ["name", "targets"], since: [5, 5]),
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
        "binaryTarget": Signature([["name"], ["path", "url"], ["checksum"]], required: ["name", "path"], since: [5, 3]),
        "plugin": Signature(
            labels: ["name", "capability", "dependencies", "path", "exclude", "sources", "packageAccess"], since: [5, 5], argumentSince: common),
        "macro": Signature(
            labels: ["name", "dependencies", "path", "exclude", "sources", "packageAccess", "swiftSettings", "linkerSettings", "plugins"], since: [5, 9]),
    ]

    /// Target dependencies by their function's name.
    static let targetDependencies: [String: Signature] = {
        let labels = ["name", "package", "moduleAliases", "condition"], since = ["moduleAliases": [5, 7], "condition": [5, 3]]
        let product = Signature(labels: labels, required: ["name", "package"], argumentSince: since)
        let local = Signature(labels: ["name", "condition"], argumentSince: ["condition": [5, 3]])
        // The `...Item` forms are enum cases: every argument is required.
        return [
            "product": product, "productItem": Signature(labels: labels, required: labels, since: [5, 7], argumentSince: since), "target": local,
            "targetItem": Signature(labels: ["name", "condition"], required: ["name", "condition"], since: [5, 7]), "byName": local,
            "byNameItem": Signature(labels: ["name", "condition"], required: ["name", "condition"], since: [5, 7]),
        ]
    }()

    /// `.plugin(name:package:)` of a target's `plugins:`.
    static let pluginUsage = Signature(labels: ["name", "package"], since: [5, 5])
}
