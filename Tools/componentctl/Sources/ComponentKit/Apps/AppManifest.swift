import Foundation

/// The `apps` block of the root Package.swift: the products the shell links and an executable target
/// and product per app, regenerated whole from components.yaml's `apps:`.
enum AppManifest {
    /// The block's markers.
    static let block = GeneratedBlock(begin: "// BEGIN componentctl: apps", end: "// END componentctl: apps")

    /// The block's contents (between the marker lines) for `plans`.
    static func contents(_ plans: [AppPlan], shellModules: [String], analysis: WorkspaceAnalysis, staged: [String: Component] = [:]) throws -> String {
        var text = "\n// Generated from components.yaml's `apps:` by `componentctl sync`; edit components.yaml, not this block.\n"
        text += "// The workspace's name and the prefix of its apps' settings (components.yaml's `workspace:`).\n"
        text += "let workspaceName = \(swiftString(analysis.workspace.name))\nlet settingsPrefix = \(swiftString(analysis.workspace.settingsPrefix))\n"
        text += "// The shell links what its sources import; each app links its components' modules on top.\n"
        text += "// swift-format-ignore\nlet shellProducts: [Target.Dependency] = [\n"
        for module in shellModules { text += "    \(try product(of: module, analysis, staged: staged)),\n" }
        text += "]\n// swift-format-ignore\nlet appTargets: [Target] = [\n"
        for plan in plans {
            let modules = Set(plan.shellAPI + plan.modules.map(\.module) + plan.points.map(\.module) + plan.definitions.map(\.module)).sorted()
            let dependencies = try ["\"Shell\""] + modules.map { try product(of: $0, analysis, staged: staged) }
            text +=
                "    .executableTarget(name: \(swiftString(plan.app.product)), dependencies: [\(dependencies.joined(separator: ", "))], path: \(swiftString(plan.app.folder))),\n"
        }
        text += "]\n// swift-format-ignore\nlet appProducts: [Product] = [\n"
        for plan in plans { text += "    .executable(name: \(swiftString(plan.app.product)), targets: [\(swiftString(plan.app.product))]),\n" }
        text += "]\n// The app targets, for the tests that drive them.\n// swift-format-ignore\nlet appTargetDependencies: [Target.Dependency] = [\n"
        for plan in plans { text += "    .target(name: \(swiftString(plan.app.product))),\n" }
        text += "]\n// The shared libraries the workspace's runtime plugins link: the apps link them too, so a loaded plugin\n"
        text += "// binds to the app's one copy of each module.\n// swift-format-ignore\nlet runtimePluginLibraries: [Target.Dependency] = [\n"
        for library in runtimePluginLibraries(analysis) {
            text += "    .product(name: \(swiftString(library.product)), package: \(swiftString(library.component.folderName))),\n"
        }
        return text + "]\n"
    }

    /// The `...Dynamic` products of components that runtime plugins depend on, sorted, each once.
    static func runtimePluginLibraries(_ analysis: WorkspaceAnalysis) -> [(product: String, component: Component)] {
        let byFolder = Dictionary(analysis.workspace.components.map { ($0.folderName.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var found: [String: (product: String, component: Component)] = [:]
        for plugin in analysis.workspace.components where plugin.isRuntime {
            for target in analysis.packages[plugin.name]?.manifest?.targets ?? [] where target.kind == .regular {
                for dependency in target.dependencies {
                    guard case .product(let product, let package) = dependency.reference, product.hasSuffix("Dynamic"),
                        let component = byFolder[package.lowercased()], !component.isRuntime
                    else { continue }
                    found["\(component.folderName)/\(product)"] = (product, component)
                }
            }
        }
        return found.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The components whose products the shell, the apps and the runtime plugins' libraries name: the root package's direct dependencies.
    static func directComponents(_ plans: [AppPlan], shellModules: [String], analysis: WorkspaceAnalysis, staged: [String: Component]) -> [Component] {
        let modules =
            shellModules + plans.flatMap { plan in plan.shellAPI + plan.modules.map(\.module) + plan.points.map(\.module) + plan.definitions.map(\.module) }
        let names = Set(modules.compactMap { staged[$0]?.name ?? analysis.moduleOwners[$0] } + runtimePluginLibraries(analysis).map(\.component.name))
        return analysis.workspace.components.filter { names.contains($0.name) }
    }

    /// `text` (the root Package.swift) with its components block naming exactly the packages of `needed`
    /// and those the hand-written rest of the file names (`package: "Folder"`): a line of any other
    /// component goes, a missing one is added at the component's live folder (`sync` then points it at a
    /// pinned checkout).
    static func packageLines(_ text: String, needed: [Component], workspace: Workspace) throws -> String {
        let paths = ComponentPaths(workspace)
        var handWritten = text
        for block in [GeneratedBlock.manifest, block] {
            if let range = block.contents(in: handWritten) { handWritten.removeSubrange(range) }
        }
        let named = workspace.components.filter { handWritten.contains("package: \"\($0.folderName)\"") }
        let needed = workspace.components.filter { component in (needed + named).contains { $0.name == component.name } }
        let names = Set(needed.map(\.name))
        var present = Set<String>()
        var result = GeneratedBlock.manifest.removingLines(from: text) { line in
            guard let call = line.range(of: ".package(path: \""), let close = line.range(of: "\")", range: call.upperBound..<line.endIndex),
                let component = paths.component(at: String(line[call.upperBound..<close.lowerBound]))
            else { return false }
            present.insert(component.name)
            return !names.contains(component.name)
        }
        for component in needed where !present.contains(component.name) {
            guard
                let rewritten = try GeneratedBlock.manifest.rewriting(
                    result,
                    { block in
                        try ScaffoldService.inserting("    .package(path: \(swiftString(component.path))),\n", intoArray: "componentPackages", of: block)
                    })
            else {
                throw AppWiring.refusal("Package.swift \(GeneratedBlock.manifest.absence(in: result)), around the list of component packages")
            }
            result = rewritten
        }
        return result
    }

    /// The shell's imported modules that components define, sorted; with `publicOnly`, those it imports
    /// with `public import`: the types of its API, which every app's generated sources may name.
    static func shellModules(_ analysis: WorkspaceAnalysis, publicOnly: Bool = false) -> [String] {
        let folder = analysis.workspace.root.appendingPathComponent(AppPlan.shellFolder)
        var modules = Set<String>()
        for path in SwiftFiles.under(folder, skipping: []) {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else { continue }
            for declaration in ImportScanner.imports(in: Array(data)) where analysis.moduleOwners[declaration.module] != nil {
                if !publicOnly || declaration.accessLevel == "public" { modules.insert(declaration.module) }
            }
        }
        return modules.sorted()
    }

    /// `.product(name:package:)` of the library product holding `module` (a staged scaffold's product is named after its module).
    static func product(of module: String, _ analysis: WorkspaceAnalysis, staged: [String: Component] = [:]) throws -> String {
        if let component = staged[module] { return ".product(name: \(swiftString(module)), package: \(swiftString(component.folderName)))" }
        guard let owner = analysis.moduleOwners[module], let package = analysis.packages[owner] else {
            throw AppWiring.refusal("no component defines the module '\(module)'")
        }
        let products = package.manifest?.products.filter { $0.targets.contains(module) } ?? []
        guard let product = products.first(where: { !$0.isDynamicLibrary }) ?? products.first else {
            throw AppWiring.refusal("'\(owner)' has no library product holding its module '\(module)'; add one to \(package.manifestPath)")
        }
        return ".product(name: \(swiftString(product.name)), package: \(swiftString(package.component.folderName)))"
    }
}
