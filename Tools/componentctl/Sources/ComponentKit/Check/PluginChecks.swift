import Foundation

/// check-layers' plugin findings: what components.yaml says of plugins against what the sources declare
/// (extension points in interfaces, one definition per plugin, settings of the definition's schema).
struct PluginChecks {
    let analysis: WorkspaceAnalysis
    let catalog: PluginCatalog

    static let settingTypes: Set<String> = ["int", "number", "string", "bool"]

    /// A runtime plugin is loaded from the feed, not declared; and it links the shared (`...Dynamic`)
    /// products only, or it would carry its own copy of the router and the App could not use what it exports.
    func runtimeFindings(_ plugin: Component) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for entry in analysis.workspace.plugins where entry.plugin == plugin.name {
            findings.append(
                Diagnostic(
                    path: WorkspaceLoader.fileName, at: entry.location,
                    message: "'\(plugin.name)' is a runtime plugin: the App loads it from the plugin feed, so 'plugins:' cannot list it",
                    fix: "remove the entry (or drop 'runtime: true' to link the plugin into the App)", rule: "runtime-plugin-declared"))
        }
        guard let package = analysis.packages[plugin.name], let manifest = package.manifest else { return findings }
        let components = Dictionary(analysis.workspace.components.map { ($0.folderName.lowercased(), $0.name) }, uniquingKeysWith: { first, _ in first })
        let ownTargets = Set(manifest.targets.map(\.name))
        let appManifest = FileManager.default.contents(atPath: analysis.workspace.root.appendingPathComponent("Package.swift").path)
            .map { String(decoding: $0, as: UTF8.self) }
        for target in manifest.targets where target.kind == .regular {
            for dependency in target.dependencies {
                let product: String, packageName: String
                switch dependency.reference {
                case .product(let name, let package): (product, packageName) = (name, package)
                case .byName(let name) where !ownTargets.contains(name): (product, packageName) = (name, name)
                default: continue
                }
                guard let component = components[packageName.lowercased()] else { continue }
                if product.hasSuffix("Dynamic") {
                    if let app = appManifest, !app.contains(".product(name: \"\(product)\", package: \"\(packageName)\")") {
                        findings.append(
                            Diagnostic(
                                path: package.manifestPath, line: dependency.location.line, column: dependency.location.column,
                                message:
                                    "runtime plugin '\(plugin.name)' links '\(product)', which the App does not list, so the plugin cannot share the App's copy of '\(component)'",
                                fix: "run 'componentctl sync': it lists the libraries runtime plugins link in Package.swift's apps block",
                                rule: "runtime-plugin-host"))
                    }
                    continue
                }
                findings.append(
                    Diagnostic(
                        path: package.manifestPath, line: dependency.location.line, column: dependency.location.column,
                        message: "runtime plugin '\(plugin.name)' links '\(product)' of '\(component)' statically, so it would bring its own copy of it",
                        fix: "depend on .product(name: \"\(product)Dynamic\", package: \"\(packageName)\") (the shared library the App links too)",
                        rule: "runtime-plugin-static-dependency"))
            }
        }
        return findings
    }

    func findings() -> [Diagnostic] {
        let workspace = analysis.workspace
        var findings = pointFindings()
        for plugin in workspace.components where plugin.kind == .plugin {
            if let point = plugin.extends, catalog.point(point) == nil {
                findings.append(unknownPoint(point, at: plugin.location, what: "plugin '\(plugin.name)' extends"))
            }
            findings += definitionFindings(plugin)
            if plugin.isRuntime {
                findings += runtimeFindings(plugin)
            } else if !workspace.plugins.contains(where: { $0.plugin == plugin.name }) {
                findings.append(
                    Diagnostic(
                        severity: .warning, path: WorkspaceLoader.fileName, at: plugin.location,
                        message: "plugin '\(plugin.name)' is listed under no extension point in 'plugins:', so no container creates it",
                        fix: "add '- plugin: \(plugin.name)' under plugins.\(plugin.extends ?? "<point>"), or remove the plugin",
                        rule: "undeclared-plugin"))
            }
        }
        for entry in workspace.plugins {
            if catalog.point(entry.point) == nil {
                findings.append(unknownPoint(entry.point, at: entry.location, what: "plugins: lists '\(entry.plugin)' under"))
                continue
            }
            guard let definition = analysis.workspace.component(named: entry.plugin).flatMap({ catalog.definitions[$0.name]?.first }),
                let schema = definition.settings
            else { continue }
            for setting in entry.settings {
                guard let message = setting.problem(of: entry.plugin, in: schema) else { continue }
                let accepted = schema.keys.sorted().joined(separator: ", ")
                let fix =
                    switch schema[setting.name] {
                    case nil where accepted.isEmpty: "it takes no settings (\(definition.file):\(definition.line)); remove them"
                    case nil: "its settings are \(accepted) (\(definition.file):\(definition.line))"
                    case "string": "quote the value"
                    case let type?: "write a value of type \(type) (quoted values are strings)"
                    }
                findings.append(Diagnostic(path: WorkspaceLoader.fileName, at: setting.location, message: message, fix: fix, rule: "plugin-setting"))
            }
        }
        return findings
    }

    private func unknownPoint(_ point: String, at location: SourceLocation, what: String) -> Diagnostic {
        let hint = Suggestion.closest(to: point, in: catalog.points.map(\.id)).map { "did you mean '\($0)'?" }
        let known = catalog.points.isEmpty ? "no interface declares one yet" : "the points are \(catalog.points.map(\.id).joined(separator: ", "))"
        return Diagnostic(
            path: WorkspaceLoader.fileName, at: location, message: "\(what) '\(point)', an extension point no interface declares",
            fix: hint ?? "declare it in the interface (a type conforming to ExtensionPoint with 'static let id: ExtensionPointID = \"\(point)\"'); \(known)",
            rule: "unknown-extension-point")
    }

    /// Each point's id starts with its interface's name and is declared once.
    private func pointFindings() -> [Diagnostic] {
        var findings = catalog.unreadable.map { point in
            Diagnostic(
                path: point.file, line: point.line, column: point.column, message: "the id of extension point \(point.typeName) is not a string literal",
                fix:
                    "write it as one literal, like 'public static let id: ExtensionPointID = \"\(point.component)/name\"': componentctl reads it from the source",
                rule: "extension-point-id")
        }
        var seen: [String: PluginCatalog.Point] = [:]
        for point in catalog.points {
            let name = point.id.split(separator: "/", omittingEmptySubsequences: false)
            if name.count != 2 || name[0] != point.component || name[1].isEmpty {
                findings.append(
                    Diagnostic(
                        path: point.file, line: point.line, column: point.column,
                        message: "extension point id '\(point.id)' of \(point.typeName) does not name its interface",
                        fix: "write '\(point.component)/\(name.last.map(String.init) ?? "name")': ids are '<interface component>/<point>'",
                        rule: "extension-point-id"))
            }
            if let first = seen[point.id] {
                findings.append(
                    Diagnostic(
                        path: point.file, line: point.line, column: point.column,
                        message: "extension point '\(point.id)' is declared twice (\(first.file):\(first.line))", fix: "give each point an id of its own",
                        rule: "extension-point-id"))
            }
            seen[point.id] = seen[point.id] ?? point
        }
        return findings
    }

    /// A plugin defines exactly one `PluginDefinition`, whose id is its component's name and whose schema
    /// uses the known types.
    private func definitionFindings(_ plugin: Component) -> [Diagnostic] {
        let definitions = catalog.definitions[plugin.name] ?? []
        let manifest = analysis.packages[plugin.name]?.manifestPath ?? plugin.path + "/Package.swift"
        guard let definition = definitions.first else {
            return [
                Diagnostic(
                    path: manifest, line: 1, column: 1, message: "plugin '\(plugin.name)' defines no type conforming to PluginDefinition in its library",
                    fix: "add 'public enum <Name>Plugin: PluginDefinition' (componentctl new NAME --plugin POINT writes one)", rule: "plugin-definition")
            ]
        }
        var findings: [Diagnostic] = []
        for extra in definitions.dropFirst() {
            findings.append(
                Diagnostic(
                    path: extra.file, line: extra.line, column: extra.column,
                    message: "plugin '\(plugin.name)' defines a second PluginDefinition, \(extra.typeName) (the first is \(definition.typeName))",
                    fix: "one component is one plugin: move \(extra.typeName) into a plugin component of its own", rule: "plugin-definition"))
        }
        if definition.id != plugin.name {
            findings.append(
                Diagnostic(
                    path: definition.file, line: definition.line, column: definition.column,
                    message:
                        "\(definition.typeName)'s id is \(definition.id.map { "'\($0)'" } ?? "not a string literal"), not the component's name '\(plugin.name)'",
                    fix: "write 'public static let id = \"\(plugin.name)\"'", rule: "plugin-definition"))
        }
        guard let schema = definition.settings else {
            return findings + [
                Diagnostic(
                    path: definition.file, line: definition.line, column: definition.column,
                    message: "\(definition.typeName)'s settings are not a dictionary literal, so componentctl cannot check the declaration's values",
                    fix: "write them as one literal, like 'public static let settings: PluginSchema = [\"shown\": .int]'", rule: "plugin-definition")
            ]
        }
        for (name, type) in schema.sorted(by: { $0.key < $1.key }) where !Self.settingTypes.contains(type) {
            findings.append(
                Diagnostic(
                    path: definition.file, line: definition.line, column: definition.column,
                    message: "setting '\(name)' of \(definition.typeName) has the type '\(type)', which componentctl cannot check",
                    fix: "use .int, .number, .string or .bool", rule: "plugin-definition"))
        }
        return findings
    }
}
