import Foundation

/// check-layers: joins manifests, imports and the layer rules into findings.
public struct LayerChecker: Sendable {
    /// Modules of the toolchain and the platform SDKs: importing them needs no declared dependency.
    public static let systemModules = PlatformModules.all

    /// The analysis to check.
    public let analysis: WorkspaceAnalysis
    private let evaluator: LayerRulesEvaluator
    /// The platform's modules and those components.yaml adds (`checks.system-modules`).
    private let systemModules: Set<String>

    /// A checker over `analysis`.
    public init(analysis: WorkspaceAnalysis) {
        self.analysis = analysis
        evaluator = LayerRulesEvaluator(workspace: analysis.workspace)
        // A component's module is checked as one, whatever the team's list says (``systemModuleFindings()`` names the entry).
        systemModules = Self.systemModules.union(analysis.workspace.checks.systemModules.filter { analysis.moduleOwners[$0] == nil })
    }

    /// The entries of `checks.system-modules` that name a component's module: they would hide its undeclared imports.
    private func systemModuleFindings() -> [Diagnostic] {
        let checks = analysis.workspace.checks
        return checks.systemModules.sorted().compactMap { module in
            guard let owner = analysis.moduleOwners[module] else { return nil }
            let location = checks.systemModuleLocations[module]
            return Diagnostic(
                path: WorkspaceLoader.fileName, line: location?.line ?? 1, column: location?.column ?? 1,
                message: "checks.system-modules names '\(module)', a module of component '\(owner)'; imports of it are checked as of any component",
                fix: "remove '\(module)' from checks.system-modules", rule: "system-module-of-component")
        }
    }

    /// Every finding, sorted by place.
    public func findings() -> [Diagnostic] {
        var findings = analysis.problems
        for component in analysis.workspace.components {
            guard let package = analysis.packages[component.name], package.manifest != nil else { continue }
            findings += manifestFindings(package)
            findings += importFindings(package)
        }
        findings += cycleFindings()
        findings += systemModuleFindings()
        findings += routeCollisions()
        findings += PluginChecks(analysis: analysis, catalog: PluginCatalog(analysis)).findings()
        findings += ClosedAppCheck(analysis: analysis).findings()
        findings += StartRouteCheck(analysis: analysis).findings()
        findings += DegradeTableCheck(analysis: analysis).findings()
        findings += RootPackageCheck(analysis: analysis).findings()
        findings += InterfaceBehaviourCheck(analysis: analysis).findings()
        findings += RouteSchemeCheck(analysis: analysis).findings()
        findings += PluginRouteOverlapCheck(analysis: analysis).findings()
        return analysis.workspace.checks.judged(findings).sorted()
    }

    /// The rule the manifest edge `edge` breaks, if any.
    public func violation(of edge: ComponentEdge) -> LayerRulesEvaluator.Violation? {
        guard let from = analysis.workspace.component(named: edge.from), let to = analysis.workspace.component(named: edge.to) else { return nil }
        return evaluator.violation(from: from, to: to)
    }

    private func manifestFindings(_ package: ComponentPackage) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for edge in package.edges {
            guard let violation = violation(of: edge) else { continue }
            findings.append(
                Diagnostic(
                    path: package.manifestPath, line: edge.location.line, column: edge.location.column,
                    message: violation.message, fix: violation.fix, rule: violation.rule))
        }
        let folder = analysis.workspace.folder(of: package.component)
        for unknown in package.unknownPaths {
            let written = unknown.path ?? ""
            let target = LexicalPath.resolve(written, from: LexicalPath.resolve(folder.path))
            let exists = FileManager.default.fileExists(atPath: target + "/Package.swift")
            findings.append(
                Diagnostic(
                    path: package.manifestPath, line: unknown.location.line, column: unknown.location.column,
                    message: exists
                        ? "'\(package.component.name)' depends on '\(written)', which is not a component in components.yaml"
                        : "'\(package.component.name)' depends on '\(written)', where there is no package",
                    fix: exists
                        ? "register that package in components.yaml ('componentctl init' adds every package it finds), or depend on a registered component"
                        : "correct the path, or check the package out there (a git submodule: 'git submodule update --init')",
                    rule: "unknown-dependency"))
        }
        return findings
    }

    private func importFindings(_ package: ComponentPackage) -> [Diagnostic] {
        guard let manifest = package.manifest else { return [] }
        var findings: [Diagnostic] = []
        var usedPackages = Set<String>()
        for target in package.targets {
            let declared = target.declaration.dependencies.map { ($0, modules(providedBy: $0, in: manifest, package: package)) }
            var used = Set<Int>()
            for file in target.files {
                for declaration in file.imports {
                    let module = declaration.module
                    if module == target.declaration.moduleName { continue }
                    // A declared dependency's module wins over a system module of the same name, as it does in the compiler.
                    if let index = declared.firstIndex(where: { $0.1.modules.contains(module) }) {
                        used.insert(index)
                        continue
                    }
                    if systemModules.contains(module) { continue }
                    findings.append(implicitImport(declaration, in: file, target: target.declaration, package: package))
                }
            }
            for plugin in target.declaration.plugins {
                if case .product(_, let packageName) = plugin.reference { usedPackages.insert(identity(ofPackageNamed: packageName, in: manifest)) }
            }
            // The imports of C, C++ and Objective-C files are not read, a plugin runs its dependencies as tools, and a build
            // plugin's generated sources may import any: none proves a dependency unused.
            let importsAreKnown = !target.hasOtherSources && target.declaration.kind != .plugin && target.declaration.plugins.isEmpty
            for (index, (dependency, provided)) in declared.enumerated() {
                if let identity = provided.packageIdentity { usedPackages.insert(identity) }
                if let support = testSupportInProduction(target.declaration, provided) {
                    findings.append(
                        Diagnostic(
                            path: package.manifestPath, line: dependency.location.line, column: dependency.location.column,
                            message: support,
                            fix: "use \(dependency.name) only from test targets and demo executables; "
                                + "give '\(target.declaration.name)' the real service through the service registry",
                            rule: "test-support-in-production"))
                }
                guard importsAreKnown, !used.contains(index), provided.isImportable else { continue }
                findings.append(
                    Diagnostic(
                        severity: .warning, path: package.manifestPath, line: dependency.location.line, column: dependency.location.column,
                        message: "target '\(target.declaration.name)' declares dependency '\(dependency.name)' but never imports it",
                        fix: "remove '\(dependency.name)' from the dependencies of '\(target.declaration.name)'", rule: "redundant-dependency"))
            }
        }
        // A package may be there for its command plugins (`swift package <verb>`): only one whose products are known to offer
        // none is unused.
        for dependency in manifest.dependencies where !usedPackages.contains(dependency.identity) {
            guard let products = component(dependency.identity, dependedOnBy: package)?.manifest?.products, !products.contains(where: \.isPlugin) else {
                continue
            }
            findings.append(
                Diagnostic(
                    severity: .warning, path: package.manifestPath, line: dependency.location.line, column: dependency.location.column,
                    message: "package dependency '\(dependency.path ?? dependency.url ?? "")' is used by no target",
                    fix: "remove it from the package's dependencies", rule: "redundant-dependency"))
        }
        return findings
    }

    /// A target that depends on a test-support module (a module named `…TestSupport`: the fakes and previews
    /// an interface ships) would put test doubles into a product; only test targets, demo executables
    /// (`…Demo`) and other test support may use them.
    private func testSupportInProduction(_ target: TargetDeclaration, _ provided: Provided) -> String? {
        let isDemo = target.kind == .executable && target.name.hasSuffix("Demo")
        guard target.kind != .test, !isDemo, !Self.isTestSupport(target.name),
            let module = provided.modules.sorted().first(where: Self.isTestSupport)
        else { return nil }
        return "target '\(target.name)' depends on the test-support module \(module), which only test targets and demos (`…Demo` executables) may use"
    }

    /// Whether `module` is an interface's test support, by the naming convention `<Interface>TestSupport`.
    public static func isTestSupport(_ module: String) -> Bool { module.hasSuffix("TestSupport") }

    private func implicitImport(_ declaration: ImportDeclaration, in file: SourceFile, target: TargetDeclaration, package: ComponentPackage) -> Diagnostic {
        let module = declaration.module
        // A guarded import is an import: whichever build sees the module compiles it.
        let branch =
            declaration.conditions.isEmpty ? "" : " (in #if \(declaration.conditions.joined(separator: ", ")): a guarded import is an import all the same)"
        var message = "'\(target.name)' imports \(module)\(branch), which target '\(target.name)' does not declare"
        var fix = "add it to the dependencies of target '\(target.name)' in \(package.manifestPath)"
        var rule = "implicit-import"
        if let owner = analysis.moduleOwners[module], let ownerComponent = analysis.workspace.component(named: owner) {
            message += " (module of component '\(owner)')"
            if owner == package.component.name {
                fix = "add \"\(module)\" to the dependencies of target '\(target.name)'"
            } else if let violation = evaluator.violation(from: package.component, to: ownerComponent) {
                // The import breaks the layering itself: reported under that rule, not as a missing declaration.
                message += ": \(violation.message)"
                fix = "remove the import: \(violation.fix)"
                rule = violation.rule
            } else if let product = exportingProduct(of: module, in: owner) {
                fix =
                    "add .product(name: \"\(product)\", package: \"\(ownerComponent.folderName)\") to target '\(target.name)' and "
                    + ".package(path:) for '\(ownerComponent.path)' to the package, if missing"
            } else {
                fix =
                    "'\(owner)' has no product holding \(module): add a library product of its target to \(ownerComponent.path)/Package.swift, "
                    + "then that product to the dependencies of target '\(target.name)'"
            }
        }
        return Diagnostic(path: file.path, line: declaration.line, column: declaration.column, message: message, fix: fix, rule: rule)
    }

    /// The product of component `owner` that holds the module `module` (its own name first): what a dependent declares.
    private func exportingProduct(of module: String, in owner: String) -> String? {
        guard let manifest = analysis.packages[owner]?.manifest else { return module }
        let holding = manifest.products.filter { !$0.isExecutable && !$0.isPlugin }.filter { product in
            product.targets.contains { manifest.target(named: $0)?.moduleName == module }
        }
        return (holding.first { $0.name == module } ?? holding.first)?.name
    }

    private struct Provided {
        var modules: Set<String>
        var packageIdentity: String?
        var isImportable: Bool
    }

    /// The modules a target dependency makes importable, and which package it uses.
    private func modules(providedBy dependency: TargetDependency, in manifest: PackageManifest, package: ComponentPackage) -> Provided {
        switch dependency.reference {
        case .target(let name):
            return local(manifest.target(named: name), named: name)
        case .byName(let name):
            if let target = manifest.target(named: name) { return local(target, named: name) }
            return product(name, identity: identity(ofPackageNamed: name, in: manifest), package: package)
        case .product(let name, let packageName):
            return product(name, identity: identity(ofPackageNamed: packageName, in: manifest), package: package)
        }
    }

    /// What a target of the package itself provides: its module, unless it is a tool or a plugin.
    private func local(_ target: TargetDeclaration?, named name: String) -> Provided {
        Provided(modules: [c99ModuleName(name)], packageIdentity: nil, isImportable: target.map { $0.isImportable && $0.kind != .executable } ?? true)
    }

    /// The component `package` depends on as the package `identity`, if it is one.
    private func component(_ identity: String, dependedOnBy package: ComponentPackage) -> ComponentPackage? {
        package.edges.first { edge in analysis.workspace.component(named: edge.to)?.folderName.lowercased() == identity }.flatMap { analysis.packages[$0.to] }
    }

    /// The identity of the package a target dependency calls `name`: a dependency's legacy `name:`, else the name itself.
    private func identity(ofPackageNamed name: String, in manifest: PackageManifest) -> String {
        manifest.dependencies.first { $0.name == name }?.identity ?? name.lowercased()
    }

    private func product(_ name: String, identity: String, package: ComponentPackage) -> Provided {
        guard let manifest = component(identity, dependedOnBy: package)?.manifest else {
            return Provided(modules: [c99ModuleName(name)], packageIdentity: identity, isImportable: true)
        }
        guard let product = manifest.products.first(where: { $0.name == name }) else {
            return Provided(modules: [c99ModuleName(name)], packageIdentity: identity, isImportable: true)
        }
        let importable = product.isExecutable || product.isPlugin ? [] : product.targets.filter { manifest.target(named: $0)?.isImportable ?? true }
        return Provided(modules: Set(importable.map(c99ModuleName)), packageIdentity: identity, isImportable: !importable.isEmpty)
    }

    /// Two library sources declaring routes of one shape: the router would refuse the second at launch.
    /// A route an interface declares belongs to the implementation that names that interface.
    private func routeCollisions() -> [Diagnostic] {
        let workspace = analysis.workspace
        var seen: [String: (owner: String, pattern: String, place: String)] = [:]
        var findings: [Diagnostic] = []
        for component in workspace.components {
            let owner = workspace.implementation(of: component.name)?.name ?? component.name
            for target in analysis.packages[component.name]?.targets ?? [] {
                for file in target.files {
                    for route in file.routes {
                        let shape = RouteShape.of(route.pattern)
                        let place = "\(file.path):\(route.line):\(route.column)"
                        guard let first = seen[shape] else {
                            seen[shape] = (owner, route.pattern, place)
                            continue
                        }
                        findings.append(
                            Diagnostic(
                                path: file.path, line: route.line, column: route.column,
                                message:
                                    "route '\(route.pattern)' of '\(owner)' has the shape of '\(first.pattern)' of '\(first.owner)' (\(first.place)); the router refuses the second at launch",
                                fix: "each URL shape has one owner: change one of the patterns", rule: "route-collision"))
                    }
                }
            }
        }
        return findings
    }

    /// A pattern with capture names erased, as the router compares them.
    private func cycleFindings() -> [Diagnostic] {
        let graph = DependencyGraph(analysis: analysis)
        return graph.cycles().compactMap { cycle in
            guard let first = cycle.first, cycle.count > 1, let package = analysis.packages[first],
                let edge = package.edges.first(where: { $0.to == cycle[1] })
            else { return nil }
            return Diagnostic(
                path: package.manifestPath, line: edge.location.line, column: edge.location.column,
                message: "dependency cycle: \(cycle.joined(separator: " -> "))",
                fix: "break the cycle: one of these dependencies must go through an interface package, a URL route or an event",
                rule: "cycle")
        }
    }
}
