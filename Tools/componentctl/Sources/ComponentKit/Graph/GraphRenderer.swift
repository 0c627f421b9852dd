public import Foundation

/// `componentctl graph`: the component graph grouped by layer, violations in red.
public enum GraphRenderer {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        case dot, mermaid, json, svg, html
    }

    struct Edge: Encodable {
        var from: String
        var to: String
        var violation: String?
    }

    struct Node: Encodable {
        var name: String
        var layer: String
        var kind: String
        /// For a plugin, the extension point it extends.
        var extends: String?
        /// Whether its manifest could not be read: its edges are unknown.
        var unreadable: Bool
    }

    /// The graph of `analysis` in `format`; the page (`html`) highlights the components `affected` names (with why) since
    /// `affectedBase`.
    public static func render(
        _ analysis: WorkspaceAnalysis, format: Format, dotExecutable: String? = findExecutable("dot"), affected: [String: String] = [:],
        affectedBase: String? = nil
    ) throws -> String {
        let checker = LayerChecker(analysis: analysis)
        let cycleEdges = Set(DependencyGraph(analysis: analysis).cycles().flatMap { cycle in zip(cycle, cycle.dropFirst()).map { "\($0.0)->\($0.1)" } })
        let nodes = analysis.workspace.components.map {
            Node(name: $0.name, layer: $0.layer, kind: $0.kind.rawValue, extends: $0.extends, unreadable: analysis.packages[$0.name]?.manifest == nil)
        }
        let edges = analysis.workspace.components.flatMap { component in
            (analysis.packages[component.name]?.edges ?? []).map { edge in
                Edge(
                    from: edge.from, to: edge.to,
                    violation: checker.violation(of: edge)?.rule ?? (cycleEdges.contains("\(edge.from)->\(edge.to)") ? "cycle" : nil))
            }
        }
        switch format {
        case .html:
            return try GraphPage.render(analysis, edges: edges, affected: affected, affectedBase: affectedBase)
        case .json:
            struct Graph: Encodable { var layers: [String]; var nodes: [Node]; var edges: [Edge] }
            return try JSONOutput.string(Graph(layers: analysis.workspace.rules.layers, nodes: nodes, edges: edges))
        case .mermaid:
            return mermaid(layers: analysis.workspace.rules.layers, nodes: nodes, edges: edges)
        case .dot:
            return dot(layers: analysis.workspace.rules.layers, nodes: nodes, edges: edges)
        case .svg:
            guard let dotExecutable else {
                throw ToolError(
                    "SVG needs Graphviz's 'dot', which is not on the PATH. Install it (apt-get install graphviz) or use --format dot.", status: .environment)
            }
            return try runDot(dotExecutable, input: dot(layers: analysis.workspace.rules.layers, nodes: nodes, edges: edges))
        }
    }

    /// Graphviz source drawn as bands top to bottom: each layer's implementations, then its interfaces
    /// (business implementations on top, their interfaces under them, then core, then foundation), each
    /// band one rank labelled at its left. Bands are ranks, not boxes, so edges run straight down through
    /// them instead of sweeping around; `concentrate` merges edges that share a path.
    private static func dot(layers: [String], nodes: [Node], edges: [Edge]) -> String {
        var lines = [
            "digraph components {", "  newrank=true; rankdir=TB; ranksep=0.8; nodesep=0.35; concentrate=true;",
            "  node [fontname=\"Helvetica\", fontsize=11];", "  edge [color=\"#555555\", arrowsize=0.6];",
        ]
        var anchors: [String] = []
        let interface = ComponentKind.interface.rawValue
        for layer in layers {
            let members = nodes.filter { $0.layer == layer }
            for (band, title) in [(members.filter { $0.kind != interface }, layer), (members.filter { $0.kind == interface }, "\(layer) interfaces")]
            where !band.isEmpty {
                let anchor = "band\(anchors.count)"
                anchors.append(anchor)
                let names = band.map { node in
                    let unread = node.unreadable ? ", style=dashed, color=red, label=\"\(node.name)\\n(manifest not read)\"" : ""
                    return "\"\(node.name)\" [shape=\(node.kind == interface ? "note" : "box")\(unread)];"
                }
                lines.append(
                    "  { rank=same; \(anchor) [shape=plaintext, label=\"\(title)\", fontcolor=gray40, fontsize=13]; "
                        + names.joined(separator: " ") + " }")
            }
        }
        if anchors.count > 1 { lines.append("  " + anchors.joined(separator: " -> ") + " [style=invis, weight=100];") }
        // Each extension point hangs off its interface; its plugins attach to it with a dashed "extends".
        for point in Set(nodes.compactMap(\.extends)).sorted() {
            let interface = point.split(separator: "/").first.map(String.init) ?? point
            lines.append("  \"\(point)\" [shape=cds, style=filled, fillcolor=\"#eef3ff\", label=\"\(point)\"];")
            lines.append("  \"\(point)\" -> \"\(interface)\" [style=dotted, arrowhead=none];")
        }
        for node in nodes {
            if let point = node.extends { lines.append("  \"\(node.name)\" -> \"\(point)\" [style=dashed, color=\"#3355aa\", label=\"extends\"];") }
        }
        for edge in edges {
            let style = edge.violation.map { " [color=red, fontcolor=red, label=\"\($0)\"]" } ?? ""
            lines.append("  \"\(edge.from)\" -> \"\(edge.to)\"\(style);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func mermaid(layers: [String], nodes: [Node], edges: [Edge]) -> String {
        func id(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }
        var lines = ["flowchart TB"]
        for layer in layers {
            lines.append("  subgraph \(layer)")
            for node in nodes where node.layer == layer {
                let label = node.unreadable ? "\"\(node.name) (manifest not read)\"" : node.name
                lines.append(node.kind == ComponentKind.interface.rawValue ? "    \(id(node.name))[/\(label)/]" : "    \(id(node.name))[\(label)]")
            }
            lines.append("  end")
        }
        for point in Set(nodes.compactMap(\.extends)).sorted() {
            lines.append("  \(id(point).replacingOccurrences(of: "/", with: "__")){{\(point)}}")
        }
        var red: [Int] = []
        for (index, edge) in edges.enumerated() {
            lines.append("  \(id(edge.from)) --> \(id(edge.to))")
            if edge.violation != nil { red.append(index) }
        }
        for node in nodes {
            if let point = node.extends { lines.append("  \(id(node.name)) -. extends .-> \(id(point).replacingOccurrences(of: "/", with: "__"))") }
        }
        if !red.isEmpty {
            lines.append("  linkStyle \(red.map(String.init).joined(separator: ",")) stroke:red,stroke-width:2px")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func runDot(_ executable: String, input: String) throws -> String {
        let run = try ProcessRunner.run(URL(fileURLWithPath: executable), ["-Tsvg"], input: Data(input.utf8))
        guard run.status == 0 else {
            throw ToolError(
                "Graphviz's dot failed (\(executable), exit \(run.status)): \(run.errorText.trimmingCharacters(in: .whitespacesAndNewlines)). "
                    + "Try --format dot and run dot yourself to see more.", status: .environment)
        }
        return run.text
    }

    /// The full path of `name` on the PATH, or nil.
    public static func findExecutable(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        (path ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
