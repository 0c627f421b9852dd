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

/// The Xcode projects of a repository and the packages each links, read from `project.pbxproj`.
enum XcodeProjects {
    /// Each `.xcodeproj` below `root` (outside the folders `skipped` names), relative to it, sorted.
    static func find(in root: URL, skipping skipped: (String) -> Bool) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root.appendingPathComponent(relative)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard FileStatus.isFolder(root.appendingPathComponent(path)), !FileStatus.isSymbolicLink(root.appendingPathComponent(path)) else { continue }
                if name.hasSuffix(".xcodeproj") {
                    found.append(path)
                } else if !skipped(path) {
                    pending.append(path)
                }
            }
        }
        return found.sorted()
    }

    /// What `project` links: the product names of its package product dependencies and the folders of its local package
    /// references (relative to the root).
    static func links(of project: String, in root: URL) -> (products: Set<String>, folders: Set<String>) {
        guard let text = try? String(contentsOf: root.appendingPathComponent(project + "/project.pbxproj"), encoding: .utf8) else { return ([], []) }
        let projectFolder = LexicalPath.resolve((project as NSString).deletingLastPathComponent, from: "/")
        var products = Set<String>(), folders = Set<String>()
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let value = Self.value(of: "productName", in: trimmed) { products.insert(value) }
            if let value = Self.value(of: "relativePath", in: trimmed) {
                folders.insert(String(LexicalPath.resolve(value, from: projectFolder).dropFirst()))
            }
        }
        return (products, folders)
    }

    /// `value` of a `key = value;` line, unquoted.
    private static func value(of key: String, in line: String) -> String? {
        guard line.hasPrefix(key + " = "), line.hasSuffix(";") else { return nil }
        let value = line.dropFirst(key.count + 3).dropLast()
        return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : String(value)
    }

    /// The files that belong to the app `project` builds: the project and, beside it, the folder named like it (the
    /// usual place of its sources); at the repository's top, nothing more, else the project's whole folder.
    static func paths(of project: String, in root: URL) -> [String] {
        let parent = (project as NSString).deletingLastPathComponent
        guard parent.isEmpty else { return [parent] }
        let sources = (project as NSString).deletingPathExtension
        return FileStatus.isFolder(root.appendingPathComponent(sources)) ? [project, sources] : [project]
    }
}
