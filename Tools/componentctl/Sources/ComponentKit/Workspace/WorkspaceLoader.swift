import CGit2
public import Foundation

/// Loads and validates components.yaml (its keys are described in the workspace's guides), reporting every problem at once.
public struct WorkspaceLoader {
    /// The file's name in the workspace root.
    public static let fileName = "components.yaml"

    /// The folder holding components.yaml: `root` if given, else the nearest one upwards from `start`.
    /// Whether the folder `root` holds a root package (its `Package.swift`), whose identity is the folder's name.
    public static func hasRootPackage(at root: URL) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    }

    public static func locateRoot(explicit root: String?, start: String = FileManager.default.currentDirectoryPath) throws -> URL {
        if let root {
            let url = URL(fileURLWithPath: root).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(fileName).path) else {
                let above = try? locateRoot(explicit: nil, start: url.deletingLastPathComponent().path)
                throw WorkspaceError.rootWithoutWorkspace(root: root, above: above?.path)
            }
            return url
        }
        var folder = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(fileName).path) { return folder }
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { throw WorkspaceError.notFound(start: start) }
            folder = parent
        }
    }

    /// Loads the workspace at `root`.
    public static func load(root: URL) throws -> Workspace {
        let fileURL = root.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            let reason =
                FileStatus.isFolder(fileURL)
                ? "it is a folder, not a file; move the folder away and put the workspace's components.yaml there"
                : FileStatus.exists(fileURL) ? "it cannot be read (\(String(cString: strerror(errno)))); check its permissions" : "it does not exist"
            throw WorkspaceError.unreadable(path: fileURL.path, reason: reason)
        }
        return try load(bytes: Array(data), root: root)
    }

    /// Loads a workspace from the bytes of its components.yaml; `checkingFolders` false skips checking that
    /// each component's folder exists (for an edit whose folders are still staged).
    public static func load(bytes: [UInt8], root: URL, checkingFolders: Bool = true) throws -> Workspace {
        let document: YAMLNode?
        do {
            document = try YAMLLoader.load(bytes, path: fileName)
        } catch {
            throw WorkspaceError.invalid([Diagnostic(path: fileName, at: error.location, message: error.message, rule: "config")])
        }
        var schema = SchemaReader(root: root, checksFolders: checkingFolders)
        guard let document, let workspace = schema.read(document, bytes: bytes), schema.diagnostics.isEmpty else {
            let diagnostics =
                schema.diagnostics.isEmpty
                ? [
                    Diagnostic(
                        path: fileName, line: 1, column: 1, message: "the file is empty",
                        fix: "delete it and run 'componentctl init', which writes one from the packages it finds", rule: "config")
                ]
                : schema.diagnostics
            throw WorkspaceError.invalid(diagnostics.sorted())
        }
        return workspace
    }
}

/// Reads the schema, collecting a diagnostic for each problem instead of stopping at the first.
struct SchemaReader {
    let root: URL
    let checksFolders: Bool
    var diagnostics: [Diagnostic] = []
    /// Folders on the way to a component's that are no link: components share most of them.
    var plainFolders: Set<String> = []
    /// The root folder, open while the file is read (-1 when it cannot be opened): each component's folder is opened below it.
    var rootFolder: Int32 = -1
    /// The layers components.yaml declares, once read: a component in another layer is reported once, where it says so.
    var layers: [String] = []

    mutating func read(_ document: YAMLNode, bytes: [UInt8]) -> Workspace? {
        rootFolder = checksFolders ? open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
        defer { if rootFolder >= 0 { close(rootFolder) } }
        guard
            let top = mapping(
                document, "the file", keys: ["workspace", "layers", "rules", "components", "plugins", "apps", "generated", "checks", "xcode-apps"])
        else {
            return nil
        }
        var name = root.lastPathComponent
        var scheme = "app"
        var ciImage: String?
        var inputs: [String] = []
        var sample: [String] = []
        var lock: String?
        var start: String?
        var settingsPrefix: String?
        var dataFolder: String?
        if let node = top["workspace"],
            let workspace = mapping(
                node, "workspace", keys: ["name", "scheme", "start", "settings-prefix", "data-folder", "ci-image", "inputs", "lock", "sample"])
        {
            inputs = workspace["inputs"].flatMap { inputPaths($0, "workspace.inputs") } ?? []
            // A sample already deleted is no error: `create` only leaves out what is there.
            sample = workspace["sample"].flatMap { inputPaths($0, "workspace.sample", mustExist: false) } ?? []
            lock = workspace["lock"].flatMap { inputPaths(.sequence([$0], start: $0.start, flow: true), "workspace.lock")?.first }
            name = workspace["name"].flatMap { string($0, "workspace.name") } ?? name
            scheme = workspace["scheme"].flatMap { string($0, "workspace.scheme") } ?? scheme
            if let node = workspace["start"], let url = string(node, "workspace.start") {
                start = url
                // The router reads it as a link: no whitespace or control character, and a host after the scheme.
                let unreadable = url.unicodeScalars.contains { CharacterSet.whitespacesAndNewlines.union(.controlCharacters).contains($0) }
                if unreadable || !url.lowercased().hasPrefix(scheme.lowercased() + "://") || url.count <= scheme.count + 3 {
                    error(
                        at: node.start, "workspace.start '\(url)' is no URL of the workspace's scheme '\(scheme)'",
                        fix:
                            "name the route every app opens first, like '\(scheme)://home', or leave the key out (the apps then start at a list of their routes)"
                    )
                }
            }
            settingsPrefix = workspace["settings-prefix"].flatMap {
                matching(
                    $0, "workspace.settings-prefix", NameCharacters.isVariablePrefix, isNo: "environment variable prefix",
                    fix:
                        "write capital letters, digits and underscores, starting with a letter and not ending with '_', like 'NOTES' (the App then reads NOTES_DATA_DIR)"
                )
            }
            dataFolder = workspace["data-folder"].flatMap {
                matching(
                    $0, "workspace.data-folder", { NameCharacters.isFolderName($0, maxLength: 255) }, isNo: "folder name",
                    fix: "write at most 255 lowercase letters, digits, '.', '_' and '-', like 'notes' (the App keeps its data in ~/.local/share/notes)")
            }
            if let node = workspace["ci-image"], let image = string(node, "workspace.ci-image") {
                // It is written into the workflow as it is: only what an image reference holds may go there.
                let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@")
                if image.isEmpty || !image.allSatisfy(allowed.contains) || image.hasPrefix("-") {
                    error(
                        at: node.start, "workspace.ci-image '\(image)' is no container image reference",
                        fix: "write one like 'swift:6.3' or 'registry.example.com/team/swift:6.3@sha256:...' (letters, digits and . _ - / : @ only)")
                } else {
                    ciImage = image
                }
            }
        }
        guard let layersNode = top["layers"] ?? missing("layers", at: document.start, example: "layers: [business, core, foundation]"),
            let layers = stringList(layersNode, "layers"), !layers.isEmpty
        else { return nil }
        for (index, layer) in layers.enumerated() where layers[..<index].contains(layer) {
            error(at: layersNode.start, "layer '\(layer)' is listed twice", fix: "list each layer once, top to bottom")
        }
        self.layers = layers
        var rules = LayerRules(layers: layers, allow: [], sameLayer: LayerRules.defaultSameLayer(for: layers))
        var allowNodes: [(String, YAMLNode)] = []
        if let node = top["rules"], let rulesMap = mapping(node, "rules", keys: ["allow", "same-layer"]) {
            if let allow = rulesMap["allow"], case .sequence(let items, _, _) = allow {
                for item in items { if let text = string(item, "rules.allow entry") { allowNodes.append((text, item)) } }
            } else if let allow = rulesMap["allow"] {
                error(at: allow.start, "rules.allow must be a list, not \(allow.kindName)", fix: "write it like '- core/session -> core/storage'")
            }
            if let policies = rulesMap["same-layer"], let policyMap = mapping(policies, "rules.same-layer", keys: Set(layers)) {
                for (key, value) in policyMap.entries {
                    guard let text = string(value, "rules.same-layer.\(key)") else { continue }
                    guard let policy = SameLayerPolicy(rawValue: text) else {
                        error(at: value.start, "unknown same-layer policy '\(text)'", fix: "use interfaces, allow-list, any or never")
                        continue
                    }
                    rules.sameLayer[key] = policy
                }
            }
        }
        guard let componentsNode = top["components"] ?? missing("components", at: document.start, example: "components:\n  user:\n    path: ..."),
            let componentMap = componentsNode.isNull ? Map(entries: [], scalarEntries: []) : mapping(componentsNode, "components", keys: nil)
        else { return nil }
        var components: [Component] = []
        for (key, value) in componentMap.scalarEntries {
            if let component = readComponent(key, value, layers: layers) { components.append(component) }
        }
        checkRelations(components, componentMap: componentMap)
        checkPlugins(components, topLayer: layers[0])
        let plugins = top["plugins"].map { readPlugins($0, components: components) } ?? []
        let apps = top["apps"].map { readApps($0, components: components, topLayer: layers[0]) } ?? []
        for (text, node) in allowNodes {
            if let edge = allowedEdge(text, at: node.start, components: components) { rules.allow.insert(edge) }
        }
        var workspace = Workspace(
            root: root, name: name, scheme: scheme, rules: rules, components: components, plugins: plugins, apps: apps, fileBytes: bytes, document: document)
        if let ciImage { workspace.ciImage = ciImage }
        workspace.start = start
        workspace.settingsPrefix = settingsPrefix ?? Workspace.settingsPrefix(forName: name)
        workspace.dataFolder = dataFolder ?? Workspace.dataFolder(forScheme: scheme)
        workspace.inputs = inputs
        workspace.sample = sample
        if let lock { workspace.lock = lock }
        if let node = top["generated"], let folders = mapping(node, "generated", keys: nil) {
            for (folder, value) in folders.scalarEntries {
                guard let from = inputPaths(value, "generated.\(folder.value)"),
                    let path = inputPaths(.sequence([.scalar(folder)], start: folder.start, flow: true), "generated", mustExist: false)?.first
                else { continue }
                workspace.generated[path] = from
            }
        }
        if let node = top["checks"] { workspace.checks = readChecks(node) }
        workspace.xcodeApps = top["xcode-apps"].map { readXcodeApps($0, components: components) } ?? []
        return workspace
    }

    /// `checks:`: a severity per rule, the baseline check-layers applies, and modules the team's platform provides.
    private mutating func readChecks(_ node: YAMLNode) -> CheckSettings {
        var settings = CheckSettings()
        guard !node.isNull, let map = mapping(node, "checks", keys: ["severity", "baseline", "system-modules"]) else { return settings }
        if let severities = map["severity"].flatMap({ mapping($0, "checks.severity", keys: nil) }) {
            for (rule, value) in severities.scalarEntries {
                guard RuleCatalog.descriptions[rule.value] != nil else {
                    let hint = Suggestion.closest(to: rule.value, in: Array(RuleCatalog.descriptions.keys)).map { "did you mean '\($0)'?" }
                    error(
                        at: rule.start, "checks.severity names '\(rule.value)', which is no rule", fix: hint ?? "use a rule id check-layers prints in brackets")
                    continue
                }
                guard let text = string(value, "checks.severity.\(rule.value)") else { continue }
                guard let level = CheckSettings.Level(rawValue: text) else {
                    error(at: value.start, "unknown severity '\(text)' for rule '\(rule.value)'", fix: "use error, warning or off")
                    continue
                }
                settings.severity[rule.value] = level
            }
        }
        settings.baseline = map["baseline"].flatMap { inputPaths(.sequence([$0], start: $0.start, flow: true), "checks.baseline", mustExist: false)?.first }
        settings.systemModules = Set(map["system-modules"].flatMap { stringList($0, "checks.system-modules") } ?? [])
        if case .sequence(let items, _, _)? = map["system-modules"] {
            for case .scalar(let item) in items { settings.systemModuleLocations[item.value] = item.start }
        }
        return settings
    }

    private mutating func readComponent(_ key: YAMLScalar, _ node: YAMLNode, layers: [String]) -> Component? {
        let name = key.value
        let allowed: Set<String> = ["path", "layer", "kind", "interface", "extends", "runtime", "version", "pin"]
        guard let map = mapping(node, "component '\(name)'", keys: allowed) else { return nil }
        guard let pathNode = map["path"] ?? missing("path", at: key.start, example: "path: Packages/Business/\(name)"),
            let written = string(pathNode, "\(name).path"),
            let layerNode = map["layer"] ?? missing("layer", at: key.start, example: "layer: \(layers[0])"),
            let layer = string(layerNode, "\(name).layer")
        else { return nil }
        // One spelling per folder (`./A//B/` is `A/B`): paths are compared as text, with git's and with each other.
        let path = written.hasPrefix("/") ? written : written.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if !layers.contains(layer) {
            let suggestion = Suggestion.closest(to: layer, in: layers).map { "use '\($0)'" } ?? "use one of \(layers.joined(separator: ", "))"
            error(at: layerNode.start, "unknown layer '\(layer)' for component '\(name)'", fix: suggestion)
        }
        var kind = ComponentKind.implementation
        if let kindNode = map["kind"], let text = string(kindNode, "\(name).kind") {
            if let parsed = ComponentKind(rawValue: text) {
                kind = parsed
            } else {
                error(at: kindNode.start, "unknown kind '\(text)' for component '\(name)'", fix: "use implementation, interface or plugin")
            }
        }
        let version = map["version"].flatMap { versionString($0, "\(name).version") }
        let pin = map["pin"].flatMap { versionString($0, "\(name).pin") }
        let interface = map["interface"].flatMap { string($0, "\(name).interface") }
        let extends = map["extends"].flatMap { string($0, "\(name).extends") }
        var isRuntime = false
        if let node = map["runtime"], let text = string(node, "\(name).runtime") {
            if case .scalar(let scalar) = node, scalar.style == .plain, text == "true" || text == "false", kind == .plugin {
                isRuntime = text == "true"
            } else {
                error(
                    at: node.start,
                    kind == .plugin
                        ? "runtime of '\(name)' must be true or false (unquoted), not '\(text)'"
                        : "'\(name)' is no plugin, so it cannot be shipped at run time",
                    fix: kind == .plugin ? "write 'runtime: true' to ship the plugin apart from the App" : "remove 'runtime:', or make it 'kind: plugin'")
            }
        }
        if checksFolders { checkFolder(path, of: name, at: pathNode.start) }
        // A name goes on command lines, into CI job names and file names: any the team chooses, of characters safe there.
        if !Self.isComponentName(name) {
            let suggestion = kebabCase((path as NSString).lastPathComponent).filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            error(
                at: key.start, "component name '\(name)' has characters other than letters, digits, '-', '_' and '.', or does not start with a letter or digit",
                fix: Self.isComponentName(suggestion) ? "rename the key, for example to '\(suggestion)'" : "rename the key")
        }
        return Component(
            name: name, path: path, layer: layer, kind: kind, interface: interface, extends: extends, isRuntime: isRuntime, version: version, pin: pin,
            location: key.start)
    }

    /// Whether `name` may name a component: ASCII letters, digits, `-`, `_` and `.`, starting with a letter or digit.
    static func isComponentName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first.isNumber else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    /// Whether the folder at `path` exists (a missing Package.swift aside); reports what is wrong with it.
    @discardableResult
    private mutating func checkFolder(_ path: String, of name: String, at location: SourceLocation) -> Bool {
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
            error(at: location, "path '\(path)' of '\(name)' leaves the workspace", fix: "use a path relative to the workspace root, without '..'")
            return false
        }
        // One call walks the whole path and refuses a link anywhere on it: only where it fails is each part looked at.
        let folder = rootFolder >= 0 ? cgit2_open_folder_without_links(rootFolder, path) : -1
        defer { if folder >= 0 { close(folder) } }
        guard folder >= 0 || isPlainFolder(path, of: name, at: location) else { return false }
        var info = stat()
        let manifest = folder >= 0 ? fstatat(folder, "Package.swift", &info, 0) : stat(root.path + "/" + path + "/Package.swift", &info)
        if manifest != 0 || info.st_mode & S_IFMT != S_IFREG {
            error(at: location, "path '\(path)' of '\(name)' has no Package.swift", fix: "every component is a SwiftPM package")
        }
        return true
    }

    /// Whether `path` is a folder reached through no link, reporting why not.
    private mutating func isPlainFolder(_ path: String, of name: String, at location: SourceLocation) -> Bool {
        var current = root.path
        for part in path.split(separator: "/") {
            current += "/" + part
            guard !plainFolders.contains(current) else { continue }
            if FileStatus.isSymbolicLink(URL(fileURLWithPath: current)) {
                error(
                    at: location, "path '\(path)' of '\(name)' goes through the symlink '\(current.dropFirst(root.path.count + 1))'",
                    fix: "point at the real folder: SwiftPM names a package by the link's name, not its target's")
                return false
            }
            plainFolders.insert(current)
        }
        guard FileStatus.isFolder(URL(fileURLWithPath: current)) else {
            error(at: location, "path '\(path)' of '\(name)' does not exist", fix: "create the package there (componentctl new) or correct the path")
            return false
        }
        return true
    }

    private mutating func checkRelations(_ components: [Component], componentMap: Map) {
        var byFolder: [String: Component] = [:]
        // The root package's identity is the checkout's folder name; without a root package that name is free.
        let checkout =
            WorkspaceLoader.hasRootPackage(at: root) ? root.lastPathComponent.lowercased() : nil
        for component in components {
            let folder = component.folderName.lowercased()
            if let other = byFolder[folder] {
                error(
                    at: component.location,
                    "folder '\(component.folderName)' of '\(component.name)' has the same name as folder '\(other.folderName)' of '\(other.name)'",
                    fix: "rename one folder: SwiftPM identifies a package by its folder name, case-insensitively")
            }
            byFolder[folder] = byFolder[folder] ?? component
            if folder == checkout {
                error(
                    at: component.location,
                    "component '\(component.name)' has the name of the workspace folder '\(root.lastPathComponent)', the root package's identity",
                    fix: "rename the component or clone the workspace into another folder")
            }
        }
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for component in components {
            guard let interface = component.interface else { continue }
            var location: SourceLocation { componentMap.scalarEntries.first { $0.0.value == component.name }?.1.start ?? component.location }
            guard let target = byName[interface] else {
                let hint =
                    Suggestion.closest(to: interface, in: Array(byName.keys)).map { "did you mean '\($0)'?" } ?? "add the interface component or remove the key"
                error(at: location, "interface '\(interface)' of '\(component.name)' is not a component", fix: hint)
                continue
            }
            if target.kind != .interface {
                error(
                    at: location, "'\(interface)', named as the interface of '\(component.name)', is not of kind interface",
                    fix: "add 'kind: interface' to '\(interface)'")
            }
        }
    }

    private mutating func allowedEdge(_ text: String, at location: SourceLocation, components: [Component]) -> AllowedEdge? {
        let sides = text.components(separatedBy: "->").map { $0.trimmingCharacters(in: .whitespaces) }
        guard sides.count == 2 else {
            error(at: location, "rules.allow entry '\(text)' is not 'layer/name -> layer/name'", fix: "write it like '- core/session -> core/storage'")
            return nil
        }
        var names: [String] = []
        let form = "each side is layer/component, like '- core/session -> core/storage'"
        // The entry as it should read, for the hints: each side with its component's layer.
        let corrected = sides.map { side -> String in
            let name = side.split(separator: "/").last.map(String.init) ?? side
            return components.first { $0.name == name }.map { "\($0.layer)/\($0.name)" } ?? side
        }.joined(separator: " -> ")
        for side in sides {
            let parts = side.split(separator: "/").map(String.init)
            let name = parts.last ?? side
            if parts.count == 1, components.contains(where: { $0.name == name }) {
                error(at: location, "rules.allow entry '\(text)' names '\(name)' without its layer", fix: "write '\(corrected)' (\(form))")
                return nil
            }
            guard parts.count == 2, let component = components.first(where: { $0.name == parts[1] }) else {
                let hint = Suggestion.closest(to: name, in: components.map(\.name)).map { "did you mean '\($0)'? " } ?? "see 'componentctl list'; "
                error(at: location, "rules.allow entry '\(text)' names unknown component '\(name)'", fix: hint + form)
                return nil
            }
            // A component in an unknown layer is reported there; comparing with it would contradict that fix.
            if component.layer != parts[0], layers.contains(component.layer) {
                error(
                    at: location, "rules.allow entry '\(text)' puts '\(component.name)' in layer '\(parts[0])', but it is in '\(component.layer)'",
                    fix: "write '\(component.layer)/\(component.name)'")
                return nil
            }
            names.append(component.name)
        }
        return AllowedEdge(from: names[0], to: names[1])
    }

    // MARK: Typed access with diagnostics

    struct Map {
        var entries: [(String, YAMLNode)]
        var scalarEntries: [(YAMLScalar, YAMLNode)]
        subscript(key: String) -> YAMLNode? { entries.first { $0.0 == key }?.1 }
    }

    mutating func mapping(_ node: YAMLNode, _ what: String, keys: Set<String>?) -> Map? {
        guard case .mapping(let entries, _, _) = node else {
            error(at: node.start, "\(what) must be a mapping, not \(node.kindName)", fix: "write 'key: value' lines under it")
            return nil
        }
        if let keys {
            for (key, _) in entries where !keys.contains(key.value) {
                let allowed = "the keys of \(what) are \(keys.sorted().joined(separator: ", "))"
                let hint = Suggestion.closest(to: key.value, in: keys.sorted()).map { "did you mean '\($0)'? (\(allowed))" } ?? allowed
                error(at: key.start, "unknown key '\(key.value)' in \(what)", fix: hint)
            }
        }
        return Map(entries: entries.map { ($0.key.value, $0.value) }, scalarEntries: entries.map { ($0.key, $0.value) })
    }

    /// The string `node` holds, reported as no `kind` (with `fix`) unless `isValid` accepts it.
    private mutating func matching(_ node: YAMLNode, _ what: String, _ isValid: (String) -> Bool, isNo kind: String, fix: String) -> String? {
        guard let text = string(node, what) else { return nil }
        if !isValid(text) { error(at: node.start, "\(what) '\(text)' is no \(kind)", fix: fix) }
        return text
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard case .scalar(let scalar) = node else {
            error(at: node.start, "\(what) must be a single value, not \(node.kindName)", fix: "write it on one line after the colon")
            return nil
        }
        guard !scalar.value.isEmpty else {
            error(at: node.start, "\(what) is empty", fix: "give it a value or remove the key")
            return nil
        }
        return scalar.value
    }

    private mutating func stringList(_ node: YAMLNode, _ what: String) -> [String]? {
        guard case .sequence(let items, _, _) = node else {
            error(at: node.start, "\(what) must be a list, not \(node.kindName)", fix: "write it like [business, core, foundation]")
            return nil
        }
        let values = items.compactMap { string($0, "an entry of \(what)") }
        return values.count == items.count ? values : nil
    }

    /// A list of paths relative to the root, normalized (no `.`, no empty or trailing `/`), without `..`, outside `.git`,
    /// each of which exists (unless `mustExist` is false); nil after reporting what is wrong.
    mutating func inputPaths(_ node: YAMLNode, _ what: String, mustExist: Bool = true) -> [String]? {
        guard let paths = stringList(node, what) else { return nil }
        var valid: [String] = []
        if paths.isEmpty { error(at: node.start, "\(what) is empty", fix: "list at least one path, or remove the entry") }
        for (path, item) in zip(paths, node.sequenceItems) {
            let parts = path.split(separator: "/").filter { $0 != "." }
            let normalized = parts.joined(separator: "/")
            if path.hasPrefix("/") || parts.contains("..") {
                error(at: item.start, "\(what) '\(path)' is not inside the workspace", fix: "use a path relative to the workspace root, without '..'")
            } else if normalized.isEmpty {
                error(at: item.start, "\(what) '\(path)' names the whole workspace", fix: "name the files or folders themselves")
            } else if parts.first == ".git" {
                error(at: item.start, "\(what) '\(path)' is inside .git, git's own store", fix: "name files of the workspace")
            } else if mustExist && checksFolders && !FileStatus.exists(root.appendingPathComponent(normalized)) {
                error(at: item.start, "\(what) '\(path)' does not exist", fix: "correct the path, or create what it names")
            } else {
                valid.append(normalized)
            }
        }
        return valid.count == paths.count && !paths.isEmpty ? valid : nil
    }

    private mutating func versionString(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard SemanticVersion(text) != nil else {
            error(at: node.start, "\(what) '\(text)' is not a semantic version", fix: "write it like 1.4.0")
            return nil
        }
        return text
    }

    mutating func missing(_ key: String, at location: SourceLocation, example: String) -> YAMLNode? {
        error(at: location, "the key '\(key)' is missing", fix: "add it, like '\(example)'")
        return nil
    }

    mutating func error(at location: SourceLocation, _ message: String, fix: String) {
        diagnostics.append(Diagnostic(path: WorkspaceLoader.fileName, at: location, message: message, fix: fix, rule: "config"))
    }
}
