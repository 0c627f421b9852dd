import Foundation

/// Finds the SwiftPM packages of a repository: every folder below the root holding a `Package.swift`, except what a build,
/// a dependency manager or git's ignore rules put there.
public enum PackageDiscovery {
    /// Folders that hold what tools made or fetched, never a team's own package.
    public static let skippedFolders: Set<String> = [
        "build", "Build", "DerivedData", "Pods", "Carthage", "node_modules", "checkouts", "SourcePackages", "vendor", "fastlane",
    ]

    /// What a walk of a repository finds, folders relative to its root, sorted.
    struct Found {
        /// The folders holding a `Package.swift` (not the root: its manifest is the root package).
        var packages: [String] = []
        /// The `.xcodeproj` folders.
        var projects: [String] = []
    }

    /// Walks the folders below `root` once, reading each folder's entry types (no `stat` per entry): links are not
    /// followed (their target is a folder of its own, found where it lives, or outside the repository), and folders that
    /// hold no team's own code are not entered: hidden ones, those tools fill, and those git ignores.
    static func walk(_ root: URL, repository: GitRepository?) -> Found {
        // The root's place in the repository, found once: paths below it are joined to it lexically, since no link is followed.
        let prefix = repository?.relativePath(of: root)
        func isSkipped(_ path: String, name: String) -> Bool {
            if name.hasPrefix(".") || skippedFolders.contains(name) { return true }
            guard let repository, let prefix else { return false }
            return (try? repository.isIgnored((prefix.isEmpty ? path : prefix + "/" + path) + "/")) == true
        }
        var found = Found()
        var pending = [""]
        while let relative = pending.popLast() {
            let entries = FileStatus.entries(inFolderAt: relative.isEmpty ? root.path : root.appendingPathComponent(relative).path)
            if !relative.isEmpty, entries.contains(where: { $0.name == "Package.swift" && $0.kind != .folder }) { found.packages.append(relative) }
            for entry in entries where entry.kind == .folder {
                let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
                if entry.name.hasSuffix(".xcodeproj") {
                    found.projects.append(path)
                } else if !isSkipped(path, name: entry.name) {
                    pending.append(path)
                }
            }
        }
        found.packages.sort()
        found.projects.sort()
        return found
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
