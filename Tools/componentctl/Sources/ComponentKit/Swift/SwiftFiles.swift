import Foundation

/// The Swift files of a workspace.
enum SwiftFiles {
    /// Every `.swift` file under `root`, relative to it, outside hidden and build folders, the folders in
    /// `skipping`, and nested workspaces (folders holding their own components.yaml).
    static func under(_ root: URL, skipping: Set<String>) -> [String] {
        var found: [String] = []
        var queue = [""]
        let manager = FileManager.default
        while let folder = queue.popLast() {
            let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
            guard let names = try? manager.contentsOfDirectory(atPath: url.path) else { continue }
            if !folder.isEmpty, names.contains(WorkspaceLoader.fileName) { continue }
            for name in names where !name.hasPrefix(".") {
                let path = folder.isEmpty ? name : folder + "/" + name
                if name.hasSuffix(".swift"), !FileStatus.isRealFolder(root.appendingPathComponent(path)) {
                    found.append(path)
                } else if !skipping.contains(path), FileStatus.isRealFolder(root.appendingPathComponent(path)) {
                    queue.append(path)
                }
            }
        }
        return found.sorted()
    }
}
