/// Reads and checks what components.yaml says of plugins: each plugin component's `extends`, and the
/// `plugins:` declaration of which plugins each extension point gets (docs/plugins.md).
extension SchemaReader {
    /// A plugin needs `extends: <interface component>/<point>` naming an interface, in the top layer;
    /// nothing else may say `extends`.
    mutating func checkPlugins(_ components: [Component], topLayer: String) {
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for component in components {
            guard component.kind == .plugin else {
                if component.extends != nil {
                    error(
                        at: component.location, "component '\(component.name)' says 'extends' but is of kind \(component.kind.rawValue)",
                        fix: "add 'kind: plugin', or remove 'extends'")
                }
                continue
            }
            if component.layer != topLayer, layers.contains(component.layer) {
                error(
                    at: component.location, "plugin '\(component.name)' is in layer \(component.layer)",
                    fix: "plugins extend features, so they live in the top layer: 'layer: \(topLayer)'")
            }
            guard let point = component.extends else {
                error(
                    at: component.location, "plugin '\(component.name)' does not say which extension point it extends",
                    fix: "add 'extends: <interface component>/<point>', like 'extends: product-interface/sections'")
                continue
            }
            checkPointName(point, at: component.location, byName: byName)
        }
    }

    /// Whether `point` is `<interface component>/<name>` with an interface of that name.
    @discardableResult
    private mutating func checkPointName(_ point: String, at location: SourceLocation, byName: [String: Component]) -> Bool {
        let parts = point.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            error(
                at: location, "extension point '\(point)' is not '<interface component>/<point>'",
                fix: "write it like 'product-interface/sections' (the interface that declares the point, a slash, the point's name)")
            return false
        }
        guard let interface = byName[parts[0]] else {
            let hint = Suggestion.closest(to: parts[0], in: byName.values.filter { $0.kind == .interface }.map(\.name)).map {
                "did you mean '\($0)/\(parts[1])'?"
            }
            error(
                at: location, "extension point '\(point)' names '\(parts[0])', which is not a component",
                fix: hint ?? "name the interface component that declares the point")
            return false
        }
        guard interface.kind == .interface else {
            let fix = interface.interface.map { "extension points live in interfaces: write '\($0)/\(parts[1])'" } ?? "name an interface component"
            error(at: location, "extension point '\(point)' names '\(parts[0])', which is not an interface", fix: fix)
            return false
        }
        return true
    }

    /// The `plugins:` mapping: point -> list of `{plugin, enabled, settings}`.
    mutating func readPlugins(_ node: YAMLNode, components: [Component]) -> [PluginEntry] {
        if node.isNull { return [] }
        guard let points = mapping(node, "plugins", keys: nil) else { return [] }
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [PluginEntry] = []
        for (key, value) in points.scalarEntries {
            let point = key.value
            let known = checkPointName(point, at: key.start, byName: byName)
            if value.isNull { continue }
            guard case .sequence(let items, _, _) = value else {
                error(
                    at: value.start, "plugins.\(point) must be a list, not \(value.kindName)",
                    fix: "write one '- plugin: NAME' item per plugin, in the order the page shows them")
                continue
            }
            var seen: [String: SourceLocation] = [:]
            for item in items {
                guard let entry = readEntry(item, point: point, byName: byName, pointIsKnown: known) else { continue }
                if let first = seen[entry.plugin] {
                    error(
                        at: entry.location, "plugin '\(entry.plugin)' is listed twice under '\(point)' (first at line \(first.line))",
                        fix: "keep one entry: its position is the plugin's place")
                    continue
                }
                seen[entry.plugin] = entry.location
                entries.append(entry)
            }
        }
        return entries
    }

    private mutating func readEntry(_ item: YAMLNode, point: String, byName: [String: Component], pointIsKnown: Bool) -> PluginEntry? {
        guard let fields = mapping(item, "an entry of plugins.\(point)", keys: ["plugin", "enabled", "settings"]) else { return nil }
        guard let pluginNode = fields["plugin"] ?? missing("plugin", at: item.start, example: "- plugin: reviews"),
            let name = string(pluginNode, "plugins.\(point) entry's plugin")
        else { return nil }
        var valid = true
        if let component = byName[name] {
            if component.kind != .plugin {
                error(
                    at: pluginNode.start, "'\(name)' is not a plugin (it is of kind \(component.kind.rawValue))", fix: "list components of 'kind: plugin' only")
                valid = false
            } else if pointIsKnown, let extends = component.extends, extends != point {
                // Only a well-formed `extends:` is worth moving the entry to; a malformed one has its own error.
                let fix =
                    extends.split(separator: "/", omittingEmptySubsequences: false).count == 2
                    ? "list it under '\(extends)', or correct the plugin's 'extends:' if it is written for '\(point)'"
                    : "correct the plugin's 'extends:'"
                error(at: pluginNode.start, "plugin '\(name)' extends '\(extends)' (its 'extends:'), not '\(point)'", fix: fix)
                valid = false
            }
        } else {
            let plugins = byName.values.filter { $0.kind == .plugin }.map(\.name)
            let hint =
                Suggestion.closest(to: name, in: plugins).map { "did you mean '\($0)'?" }
                ?? "add it with 'componentctl new NAME --plugin \(point)', or remove the entry"
            error(at: pluginNode.start, "unknown plugin '\(name)'", fix: hint)
            valid = false
        }
        var enabled = true
        if let node = fields["enabled"], let text = string(node, "plugins.\(point).\(name).enabled") {
            if case .scalar(let scalar) = node, scalar.style == .plain, text == "true" || text == "false" {
                enabled = text == "true"
            } else {
                error(
                    at: node.start, "enabled of plugin '\(name)' must be true or false (unquoted), not '\(text)'",
                    fix: "write 'enabled: false' to leave the plugin out")
                valid = false
            }
        }
        var settings: [PluginEntry.Setting] = []
        if let node = fields["settings"], !node.isNull, let map = mapping(node, "the settings of plugin '\(name)'", keys: nil) {
            for (settingKey, value) in map.scalarEntries {
                guard case .scalar(let scalar) = value else {
                    error(
                        at: value.start, "setting '\(settingKey.value)' of plugin '\(name)' must be a single value, not \(value.kindName)",
                        fix: "settings are numbers, text or true/false")
                    valid = false
                    continue
                }
                if value.isNull {
                    error(
                        at: scalar.start, "setting '\(settingKey.value)' of plugin '\(name)' has no value",
                        fix: "give it a value, or remove it to use the plugin's default")
                    valid = false
                    continue
                }
                settings.append(PluginEntry.Setting(name: settingKey.value, value: SettingValue(scalar), location: scalar.start))
            }
        }
        guard valid, case .scalar(let pluginScalar) = pluginNode else { return nil }
        return PluginEntry(point: point, plugin: name, isEnabled: enabled, settings: settings, location: pluginScalar.start, entryStart: item.start)
    }
}

extension YAMLNode {
    /// Whether the node is YAML's null: nothing, `~` or `null`, unquoted.
    var isNull: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.value)
    }
}
