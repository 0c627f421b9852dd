import Foundation

/// Reads and checks components.yaml's `apps:` (docs/apps.md): every problem is a diagnostic of its own.
extension SchemaReader {
    /// Target and product names of the root package that an app's product must not take.
    static let reservedProducts: Set<String> = ["Shell", "AppTests"]

    /// The `apps:` mapping: name -> {product, components, missing, setting-files, degrade, settings, paths}.
    mutating func readApps(_ node: YAMLNode, components: [Component], topLayer: String) -> [AppDeclaration] {
        if node.isNull { return [] }
        guard let map = mapping(node, "apps", keys: nil) else { return [] }
        let byName = Dictionary(components.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var apps: [AppDeclaration] = []
        var products: [String: String] = [:]
        for (key, value) in map.scalarEntries {
            guard let app = readApp(key, value, byName: byName, topLayer: topLayer) else { continue }
            if let other = products[app.product.lowercased()] {
                error(
                    at: key.start, "apps '\(other)' and '\(app.name)' both build the product '\(app.product)'",
                    fix: "give one of them its own 'product:' name")
                continue
            }
            products[app.product.lowercased()] = app.name
            apps.append(app)
        }
        return apps
    }

    private mutating func readApp(_ key: YAMLScalar, _ node: YAMLNode, byName: [String: Component], topLayer: String) -> AppDeclaration? {
        let name = key.value
        guard NameCharacters.isKebabCase(name) else {
            error(at: key.start, "app name '\(name)' is not lower kebab case", fix: "name it like 'my-app': lowercase letters, digits and single dashes")
            return nil
        }
        let keys: Set<String> = ["product", "components", "missing", "setting-files", "degrade", "settings", "paths"]
        guard let fields = mapping(node, "app '\(name)'", keys: keys) else { return nil }
        var valid = true
        let product = fields["product"].flatMap { string($0, "apps.\(name).product") } ?? upperCamelCase(name)
        if !NameCharacters.isIdentifier(product) {
            error(at: fields["product"]?.start ?? key.start, "product '\(product)' of app '\(name)' is no Swift identifier", fix: "write it like 'MyApp'")
            valid = false
        } else if Self.reservedProducts.contains(product) || byName.values.contains(where: { $0.folderName.lowercased() == product.lowercased() }) {
            error(
                at: fields["product"]?.start ?? key.start, "product '\(product)' of app '\(name)' has the name of a target or package of the workspace",
                fix: "choose another 'product:' name (SwiftPM needs every product and target name once)")
            valid = false
        }
        guard let listNode = fields["components"] ?? missing("components", at: key.start, example: "components: [home, product]") else { return nil }
        // An empty list is the shell alone: what a workspace starts from before its first feature.
        let items: [YAMLNode]
        switch listNode {
        case .sequence(let listed, _, _): items = listed
        case _ where listNode.isNull: items = []
        default:
            error(
                at: listNode.start, "apps.\(name).components must be a list, not \(listNode.kindName)",
                fix: "list the business components and plugins it contains, like 'components: [home, product]' ('[]' for the shell alone)")
            return nil
        }
        var members: [AppDeclaration.Member] = []
        for item in items {
            guard let member = string(item, "an entry of apps.\(name).components") else { valid = false; continue }
            if let first = members.first(where: { $0.name == member }) {
                error(at: item.start, "'\(member)' is listed twice in app '\(name)' (first at line \(first.location.line))", fix: "list it once")
                valid = false
            } else if checkMember(member, of: name, at: item.start, byName: byName, topLayer: topLayer) {
                members.append(AppDeclaration.Member(name: member, location: item.start))
            } else {
                valid = false
            }
        }
        for member in members {
            guard let plugin = byName[member.name], plugin.kind == .plugin, let point = plugin.extends,
                let interface = point.split(separator: "/").first, let host = byName.values.first(where: { $0.interface == String(interface) }),
                !members.contains(where: { $0.name == host.name })
            else { continue }
            error(
                at: member.location, "plugin '\(member.name)' of app '\(name)' extends '\(point)', but its feature '\(host.name)' is not in the app",
                fix: "add '\(host.name)' to the app's components, or remove '\(member.name)'")
            valid = false
        }
        var app = AppDeclaration(name: name, product: product, members: members, location: key.start)
        if let node = fields["missing"], !node.isNull, let missing = mapping(node, "apps.\(name).missing", keys: nil) {
            for (component, value) in missing.scalarEntries {
                guard let absence = readAbsence(component, value, app: app, byName: byName) else { valid = false; continue }
                app.missing.append(absence)
            }
        }
        var filesValid = true
        if let node = fields["setting-files"], !node.isNull, let files = mapping(node, "apps.\(name).setting-files", keys: nil) {
            for (setting, value) in files.scalarEntries {
                guard let path = file(value, "apps.\(name).setting-files.\(setting.value)") else { filesValid = false; continue }
                app.settingFiles.append((setting.value, path))
            }
        }
        app.degradeTable = fields["degrade"].flatMap { file($0, "apps.\(name).degrade") }
        if let node = fields["settings"], !node.isNull, let settings = mapping(node, "apps.\(name).settings", keys: nil) {
            for (setting, value) in settings.scalarEntries {
                guard case .scalar(let scalar) = value, !value.isNull else {
                    error(at: value.start, "setting '\(setting.value)' of app '\(name)' must be a single value", fix: "write it on one line after the colon")
                    valid = false
                    continue
                }
                // One dictionary holds both: a key twice would stop the app at start.
                if app.settingFiles.contains(where: { $0.key == setting.value }) {
                    error(
                        at: setting.start, "setting '\(setting.value)' of app '\(name)' is under both settings: and setting-files:",
                        fix: "keep it in one of them")
                    valid = false
                }
                app.settings.append((setting.value, scalar.value))
            }
        }
        if let node = fields["paths"] {
            guard let paths = inputPaths(node, "apps.\(name).paths") else { return nil }
            app.paths = paths
        }
        filesValid = filesValid && (fields["degrade"] == nil || app.degradeTable != nil)
        return valid && filesValid ? app : nil
    }

    /// Whether `member` may be listed as an app's content; says why not.
    private mutating func checkMember(_ member: String, of app: String, at location: SourceLocation, byName: [String: Component], topLayer: String) -> Bool {
        guard let component = byName[member] else {
            let candidates = byName.values.filter { $0.layer == topLayer && $0.kind != .interface }.map(\.name)
            let hint = Suggestion.closest(to: member, in: candidates).map { "did you mean '\($0)'? See 'componentctl list'." } ?? "see 'componentctl list'"
            error(at: location, "app '\(app)' names unknown component '\(member)'", fix: hint)
            return false
        }
        if component.kind == .interface {
            let implementation = byName.values.first { $0.interface == member }
            error(
                at: location, "'\(member)' in app '\(app)' is an interface: interfaces come along with the components that use them",
                fix: implementation.map { "list its implementation '\($0.name)' instead, or remove the entry" } ?? "remove the entry")
            return false
        }
        if component.layer != topLayer, layers.contains(component.layer) {
            error(
                at: location, "'\(member)' in app '\(app)' is in layer \(component.layer): it comes along with the components that depend on it",
                fix: "list only business implementations and plugins; remove '\(member)'")
            return false
        }
        if component.isRuntime {
            error(
                at: location, "'\(member)' in app '\(app)' is a runtime plugin: it is downloaded by the App, never linked",
                fix: "remove it from the app (an app loads runtime plugins of the features it contains)")
            return false
        }
        return true
    }

    private mutating func readAbsence(_ key: YAMLScalar, _ value: YAMLNode, app: AppDeclaration, byName: [String: Component]) -> AppDeclaration.Absence? {
        let what = "apps.\(app.name).missing.\(key.value)"
        guard let component = byName[key.value], component.kind == .implementation, component.interface != nil else {
            let features = byName.values.filter { $0.kind == .implementation && $0.interface != nil }.map(\.name)
            let hint = Suggestion.closest(to: key.value, in: features).map { "did you mean '\($0)'?" } ?? "name a feature (an implementation with an interface)"
            error(at: key.start, "'\(key.value)' under apps.\(app.name).missing is no feature component", fix: hint)
            return nil
        }
        if let member = app.members.first(where: { $0.name == key.value }) {
            error(
                at: key.start, "'\(key.value)' is in app '\(app.name)' (line \(member.location.line)), so nothing can stand in for it",
                fix: "remove it from 'missing:', or from the app's components")
            return nil
        }
        guard let text = string(value, what) else { return nil }
        if text == "not-in-app" { return AppDeclaration.Absence(component: key.value, behaviour: .notInApp, location: key.start) }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            error(
                at: value.start, "\(what) is '\(text)', neither 'not-in-app' nor a web address",
                fix: "write 'not-in-app' (a screen says so) or a base URL like 'https://m.example.com/' (the route's path is added to it)")
            return nil
        }
        return AppDeclaration.Absence(component: key.value, behaviour: .web(text), location: key.start)
    }

    /// A file path under the root, checked to exist when folders are checked.
    private mutating func file(_ node: YAMLNode, _ what: String) -> String? {
        guard let path = string(node, what) else { return nil }
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
            error(at: node.start, "\(what) '\(path)' leaves the workspace", fix: "use a path relative to the workspace root, without '..'")
            return nil
        }
        var isFolder: ObjCBool = false
        if checksFolders, !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) || isFolder.boolValue {
            error(at: node.start, "\(what) '\(path)' is no file", fix: "create the file or correct the path")
            return nil
        }
        // The app embeds the file: a link must not bring in one from elsewhere on the machine.
        let real = root.appendingPathComponent(path).resolvingSymlinksInPath().path
        let realRoot = root.resolvingSymlinksInPath().path
        if checksFolders, !real.hasPrefix(realRoot + "/") {
            error(at: node.start, "\(what) '\(path)' is a link to \(real), outside the workspace", fix: "copy the file into the workspace and name the copy")
            return nil
        }
        return path
    }
}
