import Foundation

/// Finds the SwiftPM packages of a repository: every folder below the root holding a `Package.swift`, except what a build,
/// a dependency manager or git's ignore rules put there.
public enum PackageDiscovery {
    /// Folders that hold what tools made or fetched, never a team's own package.
    public static let skippedFolders: Set<String> = [
        "build", "Build", "DerivedData", "Pods", "Carthage", "node_modules", "checkouts", "SourcePackages", "vendor", "fastlane",
    ]

    /// Whether the folder `path` (relative to `root`) holds no team's own code: hidden, made by a tool, or ignored by git.
    static func isSkipped(_ path: String, in root: URL, repository: GitRepository?) -> Bool {
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix(".") || skippedFolders.contains(name) { return true }
        guard let repository, let inRepository = repository.relativePath(of: root.appendingPathComponent(path)) else { return false }
        return (try? repository.isIgnored(inRepository + "/")) == true
    }

    /// The package folders below `root` (not `root` itself: its manifest is the root package), relative to it, sorted.
    static func packages(in root: URL, repository: GitRepository?) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root.appendingPathComponent(relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            if !relative.isEmpty, names.contains("Package.swift") { found.append(relative) }
            for name in names where !name.hasSuffix(".xcodeproj") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let url = root.appendingPathComponent(path)
                // A link is not followed: its target is a folder of its own, found where it lives, or outside the repository.
                guard FileStatus.isFolder(url), !FileStatus.isSymbolicLink(url), !isSkipped(path, in: root, repository: repository) else { continue }
                pending.append(path)
            }
        }
        return found.sorted()
    }
}

/// The layers `init` proposes from the dependency graph: components no other depends on at the top, components that
/// depend on none at the bottom, the rest between.
struct LayerProposal {
    static let top = "business", middle = "core", bottom = "foundation"

    /// Each component's layer.
    var layers: [String: String]
    /// The layers used, top to bottom.
    var order: [String]

    /// The proposal for components with `edges` (component -> the components it depends on); one layer when `oneLayer`.
    init(components: [String], edges: [String: Set<String>], oneLayer: Bool) {
        if components.isEmpty, !oneLayer {
            layers = [:]
            order = [Self.top, Self.middle, Self.bottom]
            return
        }
        guard !oneLayer, edges.values.contains(where: { !$0.isEmpty }) else {
            layers = Dictionary(uniqueKeysWithValues: components.map { ($0, "components") })
            order = ["components"]
            return
        }
        let dependedOn = Set(edges.values.flatMap { $0 })
        var layers: [String: String] = [:]
        for component in components {
            let dependsOnNone = edges[component]?.isEmpty ?? true
            layers[component] = dependsOnNone ? Self.bottom : dependedOn.contains(component) ? Self.middle : Self.top
        }
        self.layers = layers
        order = [Self.top, Self.middle, Self.bottom].filter { layers.values.contains($0) }
    }
}
