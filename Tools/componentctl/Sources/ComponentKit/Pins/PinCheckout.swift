public import Foundation

/// What componentctl proves before it touches a pin folder: components.lock is shared, hand-edited
/// input, and a folder named `.pin-*` may be a user's own, so neither is trusted.
///
/// A pin folder is componentctl's when it carries ``markerName``, a file that names the component,
/// the version and the tree the checkout holds, and it sits where that component's pin belongs.
/// Only such folders are ever removed or replaced.
public enum PinCheckout {
    /// The marker file every pin folder componentctl makes carries.
    public static let markerName = ".componentctl-pin"

    /// What the marker records.
    struct Marker: Codable, Equatable {
        var component: String
        var version: String
        var tree: String
    }

    /// The marker's bytes for a checkout of `component` at `version` holding `tree`.
    static func markerBytes(component: String, version: String, tree: String) throws -> Data {
        Data(try JSONOutput.string(Marker(component: component, version: version, tree: tree)).utf8)
    }

    /// The marker in the pin folder at `path` (relative to `root`), or nil when it has none or the folder
    /// is not a real folder of its own (a link, a file).
    static func marker(ofPinFolder path: String, root: URL) -> Marker? {
        let folder = root.appendingPathComponent(path)
        guard FileStatus.isRealFolder(folder), let data = FileManager.default.contents(atPath: folder.appendingPathComponent(markerName).path),
            let marker = try? JSONDecoder().decode(Marker.self, from: data),
            [PinLayout.pinFolderName(marker.component, marker.version), scratchFolderName(marker.component, marker.version)]
                .contains((path as NSString).lastPathComponent)
        else { return nil }
        return marker
    }

    /// Whether componentctl made the pin folder at `path`: it carries a marker matching its own name.
    public static func isMarked(pinFolder path: String, root: URL) -> Bool { marker(ofPinFolder: path, root: root) != nil }

    /// Checks a components.lock entry before anything acts on it; throws an exit-2 error naming the entry and the fix.
    public static func validate(_ entry: PinLock.Entry, of name: String, in workspace: Workspace) throws {
        func refuse(_ reason: String) -> ToolError {
            ToolError(
                "components.lock: the entry for '\(name)' \(reason). componentctl acts only on checkouts it made itself. "
                    + "Restore the file (git checkout -- components.lock), or remove the entry and run 'componentctl sync'. Nothing was changed.",
                status: .usage)
        }
        guard let component = workspace.component(named: name) else {
            throw refuse("names no component of components.yaml")
        }
        guard let version = SemanticVersion(entry.version), version.description == entry.version else {
            throw refuse("has version '\(entry.version)', which is not a semantic version")
        }
        guard entry.tag == "\(name)@\(entry.version)" else {
            throw refuse("has tag '\(entry.tag)'; a pin of \(name) \(entry.version) comes from the tag \(name)@\(entry.version)")
        }
        guard GitOID(hex: entry.commit) != nil, GitOID(hex: entry.tree) != nil else {
            throw refuse("has a commit or tree that is not a 40-digit git object id")
        }
        let parts = entry.checkout.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !entry.checkout.hasPrefix("/"), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw refuse("names the checkout '\(entry.checkout)', which is not a plain path inside the workspace")
        }
        let expectedFolder = PinLayout.pinFolderName(name, entry.version)
        guard let pinIndex = parts.firstIndex(of: expectedFolder), parts.last == component.folderName, pinIndex < parts.count - 1 else {
            throw refuse(
                "names the checkout '\(entry.checkout)'; a checkout of \(name) \(entry.version) is a folder "
                    + "'\(expectedFolder)/…/\(component.folderName)' beside the component's layer folder")
        }
        let parent = parts[..<pinIndex].joined(separator: "/")
        guard parent.isEmpty || component.path.hasPrefix(parent + "/") else {
            throw refuse("names the checkout '\(entry.checkout)', which is not beside the folders of '\(component.path)'")
        }
        let pinFolder = parts[...pinIndex].joined(separator: "/")
        if let owner = workspace.components.first(where: { $0.path == entry.checkout || $0.path == pinFolder || $0.path.hasPrefix(pinFolder + "/") }) {
            throw refuse("names the checkout '\(entry.checkout)', which is the folder of the component '\(owner.name)'")
        }
        guard resolvesInside(pinFolder, root: workspace.root) else {
            throw refuse("names the checkout '\(entry.checkout)', which a link leads out of the workspace")
        }
        let folder = workspace.root.appendingPathComponent(pinFolder)
        if FileStatus.exists(folder), !isMarked(pinFolder: pinFolder, root: workspace.root) {
            throw refuse(
                "names the checkout '\(entry.checkout)', but '\(pinFolder)' was not made by componentctl "
                    + "(it has no \(markerName) marker for \(name) \(entry.version)); move that folder away if it is yours")
        }
    }

    /// Throws unless the pin folder at `path` is componentctl's (or absent), so it may be removed.
    public static func requireRemovable(pinFolder path: String, root: URL) throws {
        guard FileStatus.exists(root.appendingPathComponent(path)) else { return }
        guard resolvesInside(path, root: root), isMarked(pinFolder: path, root: root) else {
            throw ToolError(
                "'\(path)' is in the way of a pinned checkout, but componentctl did not make it (it has no \(markerName) "
                    + "marker naming it), so it is not removed. Move it elsewhere if it is yours, then run the command again. Nothing was changed.",
                status: .usage)
        }
    }

    /// The name of the folder `plugin pack` builds release `version` of `component` in.
    static func scratchFolderName(_ component: String, _ version: String) -> String { ".pack-\(component)-\(version)" }

    /// Materializes `tree` at `checkout` inside the marked folder `folder` (both relative to `root`), runs `body` on it
    /// and removes the folder again, also when `body` throws. The marker is written first, so a folder a killed run
    /// left is known as componentctl's and replaced by the next run, while a folder of that name without it is refused.
    static func withScratchCheckout<T>(
        folder: String, checkout: String, component: String, version: String, tree: GitOID, root: URL, repository: GitRepository,
        _ body: (URL) throws -> T
    ) throws -> T {
        let folderURL = root.appendingPathComponent(folder)
        if FileStatus.exists(folderURL) {
            guard resolvesInside(folder, root: root), isMarked(pinFolder: folder, root: root) else {
                throw ToolError(
                    "'\(folder)' is in the way of a build of \(component) (\(version)), but componentctl did not make it (it has no "
                        + "\(markerName) marker naming it), so it is not removed. Move it elsewhere if it is yours, then run the command again.",
                    status: .usage)
            }
            try FileManager.default.removeItem(at: folderURL)
        }
        let checkoutURL = root.appendingPathComponent(checkout)
        try FileStatus.createFolder(folderURL, purpose: "a build of \(component)")
        defer { try? FileManager.default.removeItem(at: folderURL) }
        try markerBytes(component: component, version: version, tree: tree.hex).write(to: folderURL.appendingPathComponent(markerName))
        try FileManager.default.createDirectory(at: checkoutURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try repository.materialize(tree: tree, into: checkoutURL)
        return try body(checkoutURL)
    }

    /// Whether `path` (relative to `root`) stays inside the workspace once links on the way are followed.
    static func resolvesInside(_ path: String, root: URL) -> Bool {
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        let parent = root.appendingPathComponent(path).deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        return parent == realRoot || parent.hasPrefix(realRoot + "/")
    }
}
