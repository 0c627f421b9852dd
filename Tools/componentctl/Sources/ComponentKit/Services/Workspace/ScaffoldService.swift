import Foundation

/// `componentctl new`: a component in the house style that passes check-layers and builds and tests
/// alone at once, registered in components.yaml and (for business) wired into the integrated App.
public enum ScaffoldService {
    /// A package to create: its component entry and its files.
    struct Package {
        var name: String
        var folder: String
        var layer: String
        var kind: ComponentKind
        var interface: String?
        var extends: String? = nil
        var files: [String: String]
    }

    /// `yaml`, the components.yaml a scaffold would write, once it loads; throws naming what of the command made it invalid.
    static func checkedEdit(_ yaml: [UInt8], of workspace: Workspace, apps: [String]) throws -> [UInt8] {
        do {
            _ = try WorkspaceLoader.load(bytes: yaml, root: workspace.root, checkingFolders: false)
            return yaml
        } catch WorkspaceError.invalid(let diagnostics) {
            let options = apps.map { "--app \($0)" }.joined(separator: " ")
            throw ToolError(
                "Nothing was written: components.yaml, as this command would change it\(options.isEmpty ? "" : " (\(options))"), would be invalid:\n"
                    + diagnostics.map { "  \($0.message)" + ($0.fix.map { ". Fix: \($0)" } ?? "") + "\n" }.joined()
                    + (options.isEmpty ? "Correct components.yaml first." : "Check the --app options."), status: .usage)
        }
    }

    /// Creates `name` in `layer` (with an interface package for the top layer, or when `interface` is set).
    public static func create(
        _ workspace: Workspace, name: String, layer: String, interface wantsInterface: Bool, apps: [String] = [],
        faultPoint: (String) -> Void = { _ in }
    ) throws -> CommandResult {
        try checkName(name)
        _ = try workspace.apps(namedByOptions: apps)
        guard workspace.rules.layers.contains(layer) else {
            throw ToolError("Unknown layer '\(layer)'; the layers are \(workspace.rules.layers.joined(separator: ", ")).", status: .usage)
        }
        let isTop = workspace.rules.layers.first == layer
        if !apps.isEmpty && !isTop {
            throw ToolError(
                "Only \(workspace.rules.layers[0]) components are an app's content; a \(layer) component comes along with what uses it. Drop --app.",
                status: .usage)
        }
        let withInterface = wantsInterface || isTop
        let implementation = Package(
            name: componentName(name, in: workspace), folder: folder(for: layer, kind: .implementation, name: name, in: workspace), layer: layer,
            kind: .implementation, interface: withInterface ? componentName(name + "Interface", in: workspace) : nil, files: [:])
        var packages = [implementation]
        if withInterface {
            packages.append(
                Package(
                    name: componentName(name + "Interface", in: workspace),
                    folder: folder(for: layer, kind: .interface, name: name + "Interface", in: workspace),
                    layer: layer, kind: .interface, interface: nil, files: [:]))
        }
        try refuseCollisions(packages, workspace: workspace)
        // A feature in the house style opens routes and screens; a repository without the template's router gets plain packages.
        let router = workspace.component(named: "router")
        let screens = workspace.component(named: "screen-kit")
        let isFeature = isRoutedFeature(in: workspace, layer: layer)
        let suffixes = isFeature ? featureModuleSuffixes : withInterface ? ["", "Tests", "Interface", "InterfaceTests"] : ["", "Tests"]
        try refuseModuleClashes(suffixes.map { name + $0 }, workspace: workspace)
        let templates = Templates(name: name, scheme: workspace.scheme, style: style(of: workspace, layer: layer))
        if isFeature, let router, let screens {
            let interfaceFolder = packages[1].folder
            packages[0].files = templates.business(
                router: relative(router.path, from: packages[0].folder), screens: relative(screens.path, from: packages[0].folder),
                interface: relative(interfaceFolder, from: packages[0].folder))
            packages[1].files = templates.interface(router: relative(router.path, from: interfaceFolder))
        } else {
            packages[0].files = templates.plain(layer: layer)
            if withInterface { packages[1].files = templates.plainInterface(layer: layer) }
        }

        var transaction = WorkspaceTransaction(root: workspace.root, summary: "new \(name)")
        var stagedFolders: [String: URL] = [:]
        for package in packages {
            let staged = try WorkspaceTransaction.stagingFolder(root: workspace.root).appendingPathComponent((package.folder as NSString).lastPathComponent)
            stagedFolders[package.name] = staged
            for (path, text) in package.files {
                let file = staged.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            transaction.add(folder: staged, at: package.folder)
        }
        let yaml = try checkedEdit(
            try AppsFileEditor.adding(implementation.name, to: apps, in: try appendingComponents(packages, to: workspace)), of: workspace, apps: apps)
        transaction.write(WorkspaceLoader.fileName, yaml)
        // The scaffold's module is the template's `<Name>Module`; its sources are only staged yet.
        var staged = AppWiring.Staged()
        staged.folders = stagedFolders
        for package in packages {
            staged.manifests[package.name] = (package.folder, Array((package.files["Package.swift"] ?? "").utf8))
        }
        // The new interface's routes, which apps that leave the feature out answer for.
        for package in packages where package.kind == .interface {
            staged.routes[package.name] = package.files.filter { $0.key.hasPrefix("Sources/") && $0.key.hasSuffix(".swift") }.sorted { $0.key < $1.key }
                .flatMap { file in Array(file.value.utf8).withUnsafeBufferPointer { ImportScanner.scan($0).routes.map(\.pattern) } }
        }
        if isFeature {
            staged.modules[implementation.name] = [
                PluginCatalog.Module(
                    component: implementation.name, typeName: "\(name)Module", module: name,
                    file: "\(implementation.folder)/Sources/\(name)/\(name)Module.swift", line: 1, column: 1)
            ]
        }
        if isFeature { transaction.write("Package.swift", try wiringManifest(workspace, packages: [(packages[0].folder, name)])) }
        try AppWiring.update(&transaction, yaml: yaml, root: workspace.root, adding: staged)
        let wired = apps.isEmpty ? "" : " It is in the app\(apps.count == 1 ? "" : "s") \(apps.joined(separator: ", ")) (their wiring is regenerated)."
        try transaction.commit(repository: nil, faultPoint: faultPoint)
        let created = packages.map { "\($0.name) at \($0.folder)" }.joined(separator: " and ")
        return CommandResult(output: "Created \(created).\(wired) Try: swift test --package-path \(packages[0].folder)\n")
    }

    /// The component name for the package `name`: itself where most components are named like their folders (a repository
    /// `init` adopted), else its kebab case (the template's style).
    static func componentName(_ name: String, in workspace: Workspace) -> String {
        let likeFolders = workspace.components.filter { $0.name == $0.folderName }.count
        return likeFolders * 2 > workspace.components.count ? name : kebabCase(name)
    }

    /// The manifest style of the components of `layer` (of all, when the layer has none).
    private static func style(of workspace: Workspace, layer: String) -> ManifestStyle {
        let peers = workspace.components.filter { $0.layer == layer }
        let manifests = (peers.isEmpty ? workspace.components : peers).compactMap { component in
            FileManager.default.contents(atPath: workspace.folder(of: component).appendingPathComponent("Package.swift").path).map { Array($0) }
        }
        return ManifestStyle(of: manifests)
    }

    /// Whether a new component of `layer` is a feature in the house style (routes, screens, a demo): the top
    /// layer's, in a workspace with the template's router and screens.
    static func isRoutedFeature(in workspace: Workspace, layer: String) -> Bool {
        workspace.rules.layers.first == layer && workspace.component(named: "router") != nil && workspace.component(named: "screen-kit") != nil
    }

    static func checkName(_ name: String) throws {
        guard name.first?.isUppercase == true, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ToolError("'\(name)' is not a component name: use UpperCamelCase letters and digits, like Wishlist.", status: .usage)
        }
    }

    /// Where components of `layer` and `kind` live: the folder most of them share, else `Packages/<Layer>`.
    static func folder(for layer: String, kind: ComponentKind, name: String, in workspace: Workspace) -> String {
        // Beside its own kind in its layer, else beside its layer (a repository with no interfaces yet keeps them together).
        let sameKind = workspace.components.filter { $0.layer == layer && $0.kind == kind }
        let peers = sameKind.isEmpty && kind != .plugin ? workspace.components.filter { $0.layer == layer } : sameKind
        let parents = peers.map { ($0.path as NSString).deletingLastPathComponent }
        let counts = Dictionary(parents.map { ($0, 1) }, uniquingKeysWith: +)
        let parent =
            counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
            ?? (kind == .interface
                ? "Packages/Interfaces" : kind == .plugin ? "Packages/Plugins" : "Packages/\(layer.prefix(1).uppercased() + layer.dropFirst())")
        return parent + "/" + name
    }

    /// Refuses target names (`modules`: the new packages' libraries, demos, tests, test support) that a
    /// component, the root package or the toolchain already uses: SwiftPM needs target names unique across
    /// the whole graph, and a module named like a system one would hide it.
    /// The modules a feature named `name` in the house style gets, by their suffix: `name`, `nameDemo`, ...
    static let featureModuleSuffixes = ["", "Demo", "Tests", "Interface", "InterfaceTestSupport", "InterfaceTests"]

    /// Module names already taken, in lower case, with what takes each: the toolchain's, the root package's
    /// reserved targets, and the targets of the components `keeps` accepts.
    static func takenModules(_ analysis: WorkspaceAnalysis, keeping keeps: (String) -> Bool = { _ in true }) -> [String: String] {
        var taken: [String: String] = [:]
        for name in LayerChecker.systemModules { taken[name.lowercased()] = "a module of the toolchain" }
        for (component, package) in analysis.packages where keeps(component) {
            for target in package.manifest?.targets ?? [] { taken[target.name.lowercased()] = "a target of component '\(component)'" }
        }
        for name in SchemaReader.reservedProducts { taken[name.lowercased()] = "a target of the root package" }
        return taken
    }

    static func refuseModuleClashes(_ modules: [String], workspace: Workspace) throws {
        var taken = takenModules(try WorkspaceAnalysis.analyze(workspace, scanImports: false, readSources: false))
        if let root = try? workspace.manifests.load(packageIn: workspace.root) {
            for target in root.targets { taken[target.name.lowercased()] = "a target of the root package" }
        }
        for app in workspace.apps { taken[app.product.lowercased()] = "the executable of app '\(app.name)'" }
        for module in modules {
            if let owner = taken[module.lowercased()] {
                throw ToolError(
                    "'\(module)' would clash with \(owner) (SwiftPM needs every target name once in the whole graph). Choose another name.", status: .usage)
            }
        }
    }

    static func refuseCollisions(_ packages: [Package], workspace: Workspace) throws {
        for package in packages {
            let folderName = (package.folder as NSString).lastPathComponent.lowercased()
            if let other = workspace.components.first(where: { $0.name == package.name || $0.folderName.lowercased() == folderName }) {
                throw ToolError(
                    "'\(package.name)' collides with the existing component '\(other.name)' (\(other.path)); "
                        + "SwiftPM identifies packages by folder name, case-insensitively. Choose another name.", status: .usage)
            }
            if FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent(package.folder).path) {
                throw ToolError("'\(package.folder)' exists already; choose another name or remove it.", status: .usage)
            }
        }
        if workspace.root.lastPathComponent.lowercased() == packages[0].name {
            throw ToolError("'\(packages[0].name)' is the name of the workspace folder, the root package's identity; choose another.", status: .usage)
        }
    }

    static func relative(_ target: String, from folder: String) -> String {
        String(repeating: "../", count: folder.split(separator: "/").count) + target
    }

    /// components.yaml with the new entries after the last component of their layer or one above, indented like the others.
    static func appendingComponents(_ packages: [Package], to workspace: Workspace) throws -> [UInt8] {
        try ComponentsFileEditor.addingComponents(in: workspace, layer: packages.first?.layer) { entries(packages, keyIndent: $0, fieldIndent: $1) }
    }

    /// Where the new entries go (after the last component of their layer or one above) and their text.
    static func componentsInsertion(_ packages: [Package], in workspace: Workspace) throws -> (offset: Int, text: String) {
        try ComponentsFileEditor.componentsInsertion(in: workspace, layer: packages.first?.layer) { entries(packages, keyIndent: $0, fieldIndent: $1) }
    }

    private static func entries(_ packages: [Package], keyIndent: String, fieldIndent: String) -> String {
        var text = ""
        for package in packages {
            text += "\(keyIndent)\(package.name):\n\(fieldIndent)path: \(package.folder)\n\(fieldIndent)layer: \(package.layer)\n"
            if package.kind != .implementation { text += "\(fieldIndent)kind: \(package.kind.rawValue)\n" }
            if let point = package.extends { text += "\(fieldIndent)extends: \(point)\n" }
            if let interface = package.interface { text += "\(fieldIndent)interface: \(interface)\n" }
            text += "\(fieldIndent)version: 0.1.0\n"
        }
        return text
    }

    /// Package.swift with each package (folder, and the module its product is named after) in its
    /// generated block, unless already there.
    static func wiringManifest(_ workspace: Workspace, packages: [(folder: String, module: String)]) throws -> [UInt8] {
        let text = (try? String(contentsOf: workspace.root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        let wired = try GeneratedBlock.manifest.rewriting(text) { block in
            var result = block
            for package in packages where !block.contains(".package(path: \"\(package.folder)\")") {
                result = try inserting("    .package(path: \"\(package.folder)\"),\n", intoArray: "componentPackages", of: result)
            }
            return result
        }
        guard let wired else {
            throw ToolError(
                "Package.swift \(GeneratedBlock.manifest.absence(in: text)), so the new component cannot be wired in; put the markers back.",
                status: .usage)
        }
        return Array(wired.utf8)
    }

    /// `block` with `line` appended to the array `let name … = [ … ]`; an empty `[]` (as swift-format writes
    /// it) is opened up first.
    static func inserting(_ line: String, intoArray name: String, of block: String) throws -> String {
        var result = block
        if let declaration = result.range(of: "let \(name)"), let end = result[declaration.upperBound...].firstIndex(of: "\n"),
            let empty = result.range(of: "= []", range: declaration.upperBound..<end)
        {
            result.replaceSubrange(empty, with: "= [\n]")
        }
        guard let declaration = result.range(of: "let \(name)"), let close = result.range(of: "\n]", range: declaration.upperBound..<result.endIndex) else {
            throw ToolError("The generated block has no '\(name)' list to add to.", status: .usage)
        }
        result.insert(contentsOf: line, at: result.index(after: close.lowerBound))
        return result
    }
}
