import Foundation

/// An app an Xcode project assembles (`xcode-apps:`): no SwiftPM package builds it, so componentctl does not build it
/// either, but `affected` names it when its own files change or a component it links is affected.
public struct XcodeApp: Sendable {
    /// Its name in components.yaml.
    public var name: String
    /// The `.xcodeproj`, relative to the root.
    public var project: String
    /// The files and folders that belong to it (the project and its sources), relative to the root.
    public var paths: [String]
    /// The components whose products the project links.
    public var components: [String]
}

extension SchemaReader {
    /// `xcode-apps:`: name -> {project, paths, components}.
    mutating func readXcodeApps(_ node: YAMLNode, components: [Component]) -> [XcodeApp] {
        guard !node.isNull, let map = mapping(node, "xcode-apps", keys: nil) else { return [] }
        let known = Set(components.map(\.name))
        var apps: [XcodeApp] = []
        for (key, value) in map.scalarEntries {
            guard let fields = mapping(value, "xcode-apps.\(key.value)", keys: ["project", "paths", "components"]),
                let projectNode = fields["project"] ?? missing("project", at: key.start, example: "project: App/App.xcodeproj"),
                let project = inputPaths(.sequence([projectNode], start: projectNode.start, flow: true), "xcode-apps.\(key.value).project")?.first
            else { continue }
            let paths = fields["paths"].flatMap { inputPaths($0, "xcode-apps.\(key.value).paths") } ?? [project]
            var members: [String] = []
            for item in fields["components"]?.sequenceItems ?? [] {
                guard let name = string(item, "an entry of xcode-apps.\(key.value).components") else { continue }
                guard known.contains(name) else {
                    let hint = Suggestion.closest(to: name, in: Array(known)).map { "did you mean '\($0)'?" } ?? "list components of components.yaml"
                    error(at: item.start, "xcode app '\(key.value)' names unknown component '\(name)'", fix: hint)
                    continue
                }
                members.append(name)
            }
            apps.append(XcodeApp(name: key.value, project: project, paths: paths, components: members))
        }
        return apps
    }
}

/// The Xcode projects of a repository and the packages each links, read from `project.pbxproj` (``PackageDiscovery`` finds them).
enum XcodeProjects {
    /// What `project` links: the product names of its package product dependencies and the folders of its local package
    /// references (relative to the root).
    static func links(of project: String, in root: URL) -> (products: Set<String>, folders: Set<String>) {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(project + "/project.pbxproj").path) else { return ([], []) }
        let projectFolder = LexicalPath.resolve((project as NSString).deletingLastPathComponent, from: "/")
        var products = Set<String>(), folders = Set<String>()
        // Bytes, not lines of text: a large app's project is megabytes.
        let bytes = Array(data)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = bytes[start..<end]
            start = end + 1
            if let value = value(of: productName, in: line) { products.insert(value) }
            if let value = value(of: relativePath, in: line) { folders.insert(String(LexicalPath.resolve(value, from: projectFolder).dropFirst())) }
        }
        return (products, folders)
    }

    private static let productName = Array("productName = ".utf8), relativePath = Array("relativePath = ".utf8)

    /// The value of a `key = value;` line (`key` given with its " = "), unquoted.
    private static func value(of key: [UInt8], in line: ArraySlice<UInt8>) -> String? {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        let trimmed = line.drop(while: isBlank)
        guard trimmed.starts(with: key) else { return nil }
        var value = trimmed.dropFirst(key.count)
        while let last = value.last, isBlank(last) { value = value.dropLast() }
        guard value.last == UInt8(ascii: ";") else { return nil }
        value = value.dropLast()
        if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") { value = value.dropFirst().dropLast() }
        return String(decoding: value, as: UTF8.self)
    }

    /// The files that belong to the app `project` builds: the project and, beside it, the folder named like it (the
    /// usual place of its sources), or below the top the project's whole folder; the files and folders its main group
    /// lists (its targets' sources, wherever they are), but no component's folder; and the spec that generates it
    /// (XcodeGen's `project.yml`, Tuist's `Project.swift`).
    static func paths(of project: String, in root: URL, componentFolders: [String]) -> [String] {
        let parent = (project as NSString).deletingLastPathComponent
        let sources = (project as NSString).deletingPathExtension
        var paths = parent.isEmpty ? (FileStatus.isFolder(root.appendingPathComponent(sources)) ? [project, sources] : [project]) : [parent]
        let specs = ["project.yml", "project.yaml", "Project.swift"].map { parent.isEmpty ? $0 : parent + "/" + $0 }
        let candidates = mainGroupPaths(of: project, in: root) + specs.filter { FileStatus.exists(root.appendingPathComponent($0)) }
        let within = { (path: String, folder: String) in path == folder || path.hasPrefix(folder + "/") }
        for path in candidates where !paths.contains(where: { within(path, $0) }) && !componentFolders.contains(where: { within(path, $0) }) {
            paths.append(path)
        }
        return paths
    }

    /// The files and folders the main group of `project` lists, relative to the root: each group or file with a path
    /// of its own (what a group holds lies below it), through groups that have none. None when the project cannot be read,
    /// and none outside the repository or naming all of it.
    static func mainGroupPaths(of project: String, in root: URL) -> [String] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(project + "/project.pbxproj").path),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let objects = plist["objects"] as? [String: Any], let rootID = plist["rootObject"] as? String,
            let mainID = (objects[rootID] as? [String: Any])?["mainGroup"] as? String, let main = objects[mainID] as? [String: Any]
        else { return [] }
        let projectFolder = (project as NSString).deletingLastPathComponent
        let base = [projectFolder, main["path"] as? String ?? ""].filter { !$0.isEmpty }.joined(separator: "/")
        var found: [String] = []
        var pending = main["children"] as? [String] ?? []
        var seen: Set<String> = [mainID]
        while let id = pending.popLast() {
            guard seen.insert(id).inserted, let object = objects[id] as? [String: Any] else { continue }
            // Only paths relative to the group or to the project's folder are files of the repository (not the SDK's or a build's).
            guard let tree = object["sourceTree"] as? String, tree == "<group>" || tree == "SOURCE_ROOT" else { continue }
            guard let path = object["path"] as? String else {
                pending += object["children"] as? [String] ?? []
                continue
            }
            let folder = tree == "SOURCE_ROOT" ? projectFolder : base
            guard let parts = LexicalPath.parts(of: folder + "/" + path, aboveTop: .fail), !parts.isEmpty else { continue }
            found.append(parts.joined(separator: "/"))
        }
        return found.sorted()
    }
}
