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

        enum CodingKeys: String, CodingKey { case name, layer, kind, extends, path, version, pin, modules }

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
        }
    }

    /// The rows of `analysis`, in components.yaml order.
    public static func rows(_ analysis: WorkspaceAnalysis) -> [Row] {
        analysis.workspace.components.map { component in
            Row(
                name: component.name, layer: component.layer, kind: component.kind.rawValue, extends: component.extends, path: component.path,
                version: component.version, pin: component.pin, modules: analysis.packages[component.name]?.modules ?? [])
        }
    }

    /// The listing as text (an aligned table) or JSON.
    public static func render(_ rows: [Row], json: Bool) throws -> String {
        if json { return try JSONOutput.string(rows) }
        // A plugin's kind says what it extends: "plugin of product-interface/sections".
        let header = ["NAME", "LAYER", "KIND", "PATH", "VERSION", "PIN", "MODULES"]
        let table =
            [header]
            + rows.map {
                [
                    $0.name, $0.layer, $0.extends.map { "plugin of \($0)" } ?? $0.kind, $0.path, $0.version ?? "-", $0.pin ?? "-",
                    $0.modules.joined(separator: ","),
                ]
            }
        return TextTable.render(table)
    }
}

/// Left-aligned columns separated by two spaces.
public enum TextTable {
    /// `rows` (the first is the header) as aligned text.
    public static func render(_ rows: [[String]]) -> String {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
