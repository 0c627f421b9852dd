import Foundation

extension Scratch {
    /// Turns the workspace into one with apps: a shell at `App/Shell` importing `shellImports` publicly, a root
    /// Package.swift with the generated blocks componentctl fills (`componentctl sync`), and `apps` (the
    /// YAML of an `apps:` section, indented under it) appended to components.yaml.
    public func declareApps(_ apps: String, shellImports: [String] = ["Routing"]) throws {
        try write("App/Shell/Shell.swift", shellImports.map { "public import \($0)\n" }.joined() + "\npublic enum Shell {}\n")
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("App/main.swift").path) {
            try FileManager.default.removeItem(at: root.appendingPathComponent("App/main.swift"))
        }
        try write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            // BEGIN componentctl: components
            let componentPackages: [Package.Dependency] = [
            ]
            // END componentctl: components

            // BEGIN componentctl: apps
            let appProducts: [Product] = []
            let appTargets: [Target] = []
            let shellProducts: [Target.Dependency] = []
            // END componentctl: apps

            let package = Package(
                name: "Library",
                products: appProducts + [.library(name: "Shell", targets: ["Shell"])],
                dependencies: componentPackages,
                targets: appTargets + [.target(name: "Shell", dependencies: shellProducts, path: "App/Shell")]
            )

            """)
        try write("components.yaml", try read("components.yaml") + "\napps:\n" + apps)
    }

    /// A stand-in `swift` (for COMPONENTCTL_SWIFT) that prints its arguments and fails when they contain `failing`
    /// (planning for the shared scratch folder always passes).
    public func fakeSwift(failing: String) throws -> String {
        let path = root.appendingPathComponent("fake-swift").path
        try Data(
            """
            #!/bin/sh
            echo "swift $*"
            # A plan with no modules, where SwiftPM writes it for the shared scratch folder (planning and builds do).
            case "$*" in *componentctl-shared*)
                for configuration in debug release; do
                    mkdir -p .build/componentctl-shared/fake-triple/$configuration
                    echo '{"swiftCommands": {}}' > .build/componentctl-shared/fake-triple/$configuration/description.json
                done;;
            esac
            case "$*" in *--print-manifest-job-graph*) exit 0;; esac
            case "$*" in *\(failing)*) echo "error: broken on purpose"; exit 1;; esac
            exit 0
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        try run("/bin/chmod", ["755", path])
        return path
    }
}
