import Foundation

/// The components.yaml `init` writes: block style, every section commented, as a team would write it by hand.
enum InitYAML {
    static func render(
        root: URL, components: [(name: String, path: String)], proposal: LayerProposal, edges: [String: Set<String>], baseline: String,
        xcodeApps: [XcodeApp] = []
    ) -> String {
        let name = root.lastPathComponent
        let scheme = String(name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.drop { $0.isNumber })
        var text = """
            # The registry of this repository's components, written by 'componentctl init'.
            # Edit it as you see your code: names, layers and rules are yours; 'componentctl init' run again only adds
            # packages that appeared since.
            workspace:
              name: \(quoted(name))
              scheme: \(scheme.isEmpty ? "app" : scheme)   # the URL scheme of the router, if you adopt it

            # Layers, top to bottom: a component depends on components below its own, and on its own layer only as
            # rules.same-layer says. Proposed from today's dependency graph: \(description(of: proposal)).
            layers: [\(proposal.order.joined(separator: ", "))]

            """
        let sameLayer = sameLayerEdges(edges, proposal: proposal)
        text += "rules:\n"
        if proposal.order.count == 1 {
            text += "  same-layer:\n    \(proposal.order[0]): any   # any component may depend on any other (never in a cycle)\n"
        } else {
            text += "  same-layer:                 # interfaces, allow-list, any or never, per layer\n"
            for (index, layer) in proposal.order.enumerated() {
                let policy = index == 0 ? "interfaces" : index == proposal.order.count - 1 ? "never" : "allow-list"
                text += "    \(layer): \(policy)\n"
            }
            if !sameLayer.isEmpty {
                text += "  allow:                      # the same-layer dependencies of today; a new one fails until listed here\n"
                text += sameLayer.map { "    - \($0)\n" }.joined()
            }
        }
        text += """

            checks:
              baseline: \(baseline)   # today's findings, accepted: check-layers fails only on new ones
              # severity:                # per rule id: error, warning or off, to phase a rule in
              #   redundant-dependency: off
              # system-modules: []       # modules your platform provides that componentctl does not know

            \(components.isEmpty ? "# 'componentctl new NAME --layer LAYER' makes a component; 'componentctl init' adds packages you make.\n" : "")components:

            """
        for layer in proposal.order {
            let members = components.filter { proposal.layers[$0.name] == layer }
            guard !members.isEmpty else { continue }
            text += "  # \(layer): \(comment(for: layer, proposal: proposal))\n"
            text += entries(members.map { ($0.name, $0.path, layer) }, note: nil)
        }
        guard !xcodeApps.isEmpty else { return text }
        text += "\n# Apps Xcode projects assemble: 'affected' names one when its files change or a component it links is affected.\nxcode-apps:\n"
        for app in xcodeApps {
            text += "  \(quoted(app.name)):\n    project: \(quoted(app.project))\n"
            text += "    paths: [\(app.paths.map(quoted).joined(separator: ", "))]\n"
            text += "    components: [\(app.components.map(quoted).joined(separator: ", "))]\n"
        }
        return text
    }

    /// Block-style component entries, each `name:` with its `path:` and `layer:`, keys and fields indented as given.
    static func entries(
        _ entries: [(name: String, path: String, layer: String)], note: String?, keyIndent: String = "  ", fieldIndent: String = "    "
    ) -> String {
        var text = note.map { "\(keyIndent)# \($0)\n" } ?? ""
        for entry in entries {
            text += "\(keyIndent)\(quoted(entry.name)):\n\(fieldIndent)path: \(quoted(entry.path))\n\(fieldIndent)layer: \(entry.layer)\n"
        }
        return text
    }

    private static func sameLayerEdges(_ edges: [String: Set<String>], proposal: LayerProposal) -> [String] {
        edges.sorted { $0.key < $1.key }.flatMap { from, targets in
            targets.sorted().compactMap { to in
                guard let layer = proposal.layers[from], proposal.layers[to] == layer else { return nil }
                return "\(layer)/\(from) -> \(layer)/\(to)"
            }
        }
    }

    private static func description(of proposal: LayerProposal) -> String {
        proposal.order.count == 1 ? "one layer" : proposal.order.map { "\($0) \(comment(for: $0, proposal: proposal))" }.joined(separator: "; ")
    }

    private static func comment(for layer: String, proposal: LayerProposal) -> String {
        switch layer {
        case LayerProposal.top: "no other component depends on these"
        case LayerProposal.middle: "these depend on others and others on them"
        case LayerProposal.bottom: "these depend on no other component"
        default: "every component"
        }
    }

    /// `text` as a YAML scalar: quoted when plain style would read it as something else.
    private static func quoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }
        let typed = ["true", "false", "yes", "no", "on", "off", "null", "~"].contains(text.lowercased()) || Double(text) != nil
        return plain && !typed && text.first?.isLetter == true
            ? text : "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
