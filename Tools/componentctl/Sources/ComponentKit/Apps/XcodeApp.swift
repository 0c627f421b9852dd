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
    /// usual place of its sources), or below the top the project's whole folder; the files and folders its groups list
    /// (its targets' sources, wherever they are) that git tracks, each once (not below another), and none in a component's
    /// folder; and the spec that generates it (XcodeGen's `project.yml`, Tuist's `Project.swift`). `isTracked` says
    /// whether git tracks a file, or files below a folder, at a path relative to the root.
    static func paths(of project: String, in root: URL, componentFolders: [String], isTracked: (String) -> Bool) -> [String] {
        let parent = (project as NSString).deletingLastPathComponent
        let sources = (project as NSString).deletingPathExtension
        let paths = parent.isEmpty ? (FileStatus.isFolder(root.appendingPathComponent(sources)) ? [project, sources] : [project]) : [parent]
        let specs = ["project.yml", "project.yaml", "Project.swift"].map { parent.isEmpty ? $0 : parent + "/" + $0 }
        var kept = Set(paths + componentFolders)
        var added: [String] = []
        // Shorter paths first: a folder is kept before what it holds.
        for path in (groupPaths(of: project, in: root) + specs).sorted(by: { ($0.count, $0) < ($1.count, $1) }) {
            let ancestors = path.indices.filter { path[$0] == "/" }.map { String(path[..<$0]) } + [path]
            guard !ancestors.contains(where: kept.contains), isTracked(path) else { continue }
            kept.insert(path)
            added.append(path)
        }
        return paths + added.sorted()
    }

    /// Every file and folder the groups of `project` list, relative to the root, each from the folder of its group (or the
    /// project's). None when the project cannot be read; never one outside the repository or the root itself.
    static func groupPaths(of project: String, in root: URL) -> [String] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(project + "/project.pbxproj").path),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let objects = plist["objects"] as? [String: Any], let rootID = plist["rootObject"] as? String,
            let mainID = (objects[rootID] as? [String: Any])?["mainGroup"] as? String
        else { return [] }
        let projectFolder = (project as NSString).deletingLastPathComponent
        var found: [String] = []
        var pending = [(id: mainID, folder: projectFolder)]
        var seen = Set<String>()
        while let (id, parentFolder) = pending.popLast() {
            guard seen.insert(id).inserted, let object = objects[id] as? [String: Any] else { continue }
            // Only paths relative to a group or to the project's folder are files of the repository (not the SDK's or a build's).
            let tree = object["sourceTree"] as? String ?? "<group>"
            guard tree == "<group>" || tree == "SOURCE_ROOT" else { continue }
            var folder = tree == "SOURCE_ROOT" ? projectFolder : parentFolder
            if let path = object["path"] as? String {
                guard !path.hasPrefix("/"), let parts = LexicalPath.parts(of: folder + "/" + path, aboveTop: .fail) else { continue }
                folder = parts.joined(separator: "/")
                if !folder.isEmpty { found.append(folder) }
            }
            pending += (object["children"] as? [String] ?? []).map { ($0, folder) }
        }
        return found
    }
}
