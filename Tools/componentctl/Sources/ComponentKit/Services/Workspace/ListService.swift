import Foundation

/// `componentctl list`: every component with its layer, kind, path, version, pin and modules.
public enum ListService {
    /// One row of the listing; JSON has exactly these keys.
    public struct Row: Codable, Sendable, Equatable {
        public var name: String
        public var layer: String
        public var kind: String
        /// For a plugin, the extension point it extends.
        public var extends: String?
        public var path: String
        public var version: String?
        public var pin: String?
        public var modules: [String]
        /// The apps that link it (components.yaml's `apps:`).
        public var apps: [String] = []

        enum CodingKeys: String, CodingKey { case name, layer, kind, extends, path, version, pin, modules, apps }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(layer, forKey: .layer)
            try container.encode(kind, forKey: .kind)
            try container.encode(extends, forKey: .extends)
            try container.encode(path, forKey: .path)
            try container.encode(version, forKey: .version)
            try container.encode(pin, forKey: .pin)
            try container.encode(modules, forKey: .modules)
            try container.encode(apps, forKey: .apps)
        }
    }

    /// One app of `list --apps`.
    public struct AppRow: Codable, Sendable, Equatable {
        public var name: String
        /// Its SwiftPM product; empty for an app an Xcode project assembles.
        public var product: String
        /// The `.xcodeproj` that assembles it (`xcode-apps:`), nil for an app of `apps:`.
        public var project: String?
        /// The components listed as its content.
        public var components: [String]
        /// Every component it is made of: its content's dependencies, the shell's, and its features' runtime plugins.
        public var linked: [String]
        /// What a link to each left-out feature does: `not-in-app` or a web address.
        public var missing: [String: String]
        /// What the variables of its settings start with (`workspace.settings-prefix`): `NOTES` reads `NOTES_LOG`.
        public var settingsPrefix = ""
        /// The scheme of its routes (`workspace.scheme`).
        public var scheme = ""
        /// Its first screen (`workspace.start`), if any.
        public var start: String?
    }

    /// The apps of `analysis`, in components.yaml order.
    public static func appRows(_ analysis: WorkspaceAnalysis) -> [AppRow] {
        let linked = AppPlan.componentsOfEveryApp(analysis)
        let inOrder = { (names: Set<String>) in analysis.workspace.components.map(\.name).filter(names.contains) }
        return analysis.workspace.apps.map { app in
            var missing: [String: String] = [:]
            for absence in app.missing {
                if case .web(let base) = absence.behaviour { missing[absence.component] = base } else { missing[absence.component] = "not-in-app" }
            }
            let names = linked[app.name] ?? []
            return AppRow(
                name: app.name, product: app.product, components: app.componentNames,
                linked: inOrder(names), missing: missing,
                settingsPrefix: analysis.workspace.settingsPrefix, scheme: analysis.workspace.scheme, start: analysis.workspace.start)
        }
            + analysis.workspace.xcodeApps.map { app in
                AppRow(name: app.name, product: "", project: app.project, components: app.components, linked: inOrder(linked[app.name] ?? []), missing: [:])
            }
    }

    /// `list --apps` as text or JSON.
    public static func renderApps(_ rows: [AppRow], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        guard !rows.isEmpty else { return "components.yaml declares no apps.\n" }
        let table =
            [["APP", "PRODUCT", "COMPONENTS", "LINKS", "MISSING"]]
            + rows.map { row in
                [
                    row.name, row.project ?? row.product, row.components.joined(separator: ","), "\(row.linked.count) components",
                    row.missing.isEmpty ? "-" : row.missing.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "),
                ]
            }
        return TextTable.render(table)
    }

    /// The rows of `analysis`, in components.yaml order; with `app`, only the components that app links.
    public static func rows(_ analysis: WorkspaceAnalysis, app: String? = nil) throws -> [Row] {
        let linked = AppPlan.componentsOfEveryApp(analysis)
        try app.map(analysis.workspace.checkAppExists)
        let only = app.map { linked[$0] ?? [] }
        let apps = analysis.workspace.allAppNames
        return analysis.workspace.components.filter { only?.contains($0.name) ?? true }.map { component in
            Row(
                name: component.name, layer: component.layer, kind: component.kind.rawValue, extends: component.extends, path: component.path,
                version: component.version, pin: component.pin, modules: analysis.packages[component.name]?.modules ?? [],
                apps: apps.filter { linked[$0]?.contains(component.name) == true })
        }
    }

    /// The listing as text (an aligned table) or JSON.
    public static func render(_ rows: [Row], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        // A plugin's kind says what it extends: "plugin of product-interface/sections".
        let header = ["NAME", "LAYER", "KIND", "PATH", "VERSION", "PIN", "APPS", "MODULES"]
        let table =
            [header]
            + rows.map {
                [
                    $0.name, $0.layer, $0.extends.map { "plugin of \($0)" } ?? $0.kind, $0.path, $0.version ?? "-", $0.pin ?? "-",
                    $0.apps.isEmpty ? "-" : $0.apps.joined(separator: ","), $0.modules.joined(separator: ","),
                ]
            }
        return TextTable.render(table)
    }
}
