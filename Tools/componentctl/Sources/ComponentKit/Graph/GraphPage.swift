import Foundation

/// `componentctl graph --format html`: one self-contained page (no network) to look around a workspace: layers as
/// bands, components and their edges, findings in red; a click shows a component's dependencies, dependents, modules,
/// findings and the `why` chain to another; filters by layer and app; what a change affects, highlighted.
enum GraphPage {
    struct Component: Encodable {
        var name: String
        var layer: String
        var kind: String
        var path: String
        var modules: [String]
        var findings: [Finding]
        var unreadable: Bool
        var affected: String?
    }

    struct Finding: Encodable {
        var rule: String
        var severity: String
        var place: String
        var message: String
    }

    struct App: Encodable {
        var name: String
        var components: [String]
    }

    struct Data: Encodable {
        var workspace: String
        var layers: [String]
        var components: [Component]
        var edges: [GraphRenderer.Edge]
        var apps: [App]
        var affectedBase: String?
    }

    /// The page for `analysis`, its `edges` judged already, with the components `affected` names (by name, with why) since
    /// `affectedBase`.
    static func render(_ analysis: WorkspaceAnalysis, edges: [GraphRenderer.Edge], affected: [String: String], affectedBase: String?) throws -> String {
        let workspace = analysis.workspace
        // Red is what check-layers fails on: what the workspace's baseline accepts is not.
        var findings = LayerChecker(analysis: analysis).findings()
        if let baseline = workspace.checks.baseline, let accepted = try? Baseline.load(workspace.root.appendingPathComponent(baseline)) {
            findings = accepted.apply(to: findings).new
        }
        let components = workspace.components.map { component in
            let package = analysis.packages[component.name]
            let prefix = component.path + "/"
            return Component(
                name: component.name, layer: component.layer, kind: component.kind.rawValue, path: component.path,
                modules: package?.modules.sorted() ?? [],
                findings: findings.filter { $0.path.hasPrefix(prefix) }.map {
                    Finding(rule: $0.rule, severity: $0.severity.rawValue, place: "\($0.path):\($0.line):\($0.column)", message: $0.message)
                },
                unreadable: package?.manifest == nil, affected: affected[component.name])
        }
        let linked = AppPlan.componentsOfEveryApp(analysis)
        let apps = workspace.allAppNames.map { App(name: $0, components: (linked[$0] ?? []).sorted()) }
        let data = Data(
            workspace: workspace.name, layers: workspace.rules.layers, components: components,
            edges: edges, apps: apps, affectedBase: affectedBase)
        let json = try JSONOutput.string(data).replacingOccurrences(of: "<", with: "\\u003c")
        // The title first: the data could spell its marker.
        return page.replacingOccurrences(of: "/*TITLE*/", with: escaped(workspace.name)).replacingOccurrences(of: "/*DATA*/", with: json)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "/*", with: "/&#42;")
    }

    private static let page = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>/*TITLE*/: components</title>
        <style>
          body { font: 13px -apple-system, "Helvetica Neue", Arial, sans-serif; margin: 0; display: flex; height: 100vh; color: #222; }
          #main { flex: 1; overflow: auto; }
          #side { width: 340px; border-left: 1px solid #ddd; padding: 12px; overflow: auto; background: #fafafa; }
          header { padding: 8px 12px; border-bottom: 1px solid #ddd; display: flex; gap: 16px; flex-wrap: wrap; align-items: center; }
          .band { fill: #f3f5f8; } .band.odd { fill: #e9edf2; }
          .band-label { font-weight: 600; fill: #667; }
          .node rect { fill: #fff; stroke: #8899aa; stroke-width: 1.2; rx: 6; cursor: pointer; }
          .node.interface rect { stroke-dasharray: 4 2; }
          .node.failing rect { stroke: #d00; stroke-width: 2.4; }
          .node.unreadable rect { fill: #fff3f3; }
          .node.affected rect { fill: #fff1cc; }
          .node.selected rect { stroke: #1a62d6; stroke-width: 3; }
          .node text { pointer-events: none; }
          .edge { fill: none; stroke: #8a96a3; stroke-width: 1.1; }
          .edge.violation { stroke: #d00; stroke-width: 2; }
          .edge.chain { stroke: #1a62d6; stroke-width: 3; }
          .hidden { display: none; }
          h2 { margin: 0 0 4px; font-size: 16px; } h3 { margin: 14px 0 4px; font-size: 13px; }
          ul { margin: 0; padding-left: 18px; } .finding { color: #b00; } .muted { color: #777; }
        </style>
        </head>
        <body>
        <div id="main">
          <header>
            <strong>/*TITLE*/</strong>
            <span id="layer-filters"></span>
            <label>App <select id="app-filter"><option value="">every component</option></select></label>
            <span id="summary"></span>
          </header>
          <svg id="graph" xmlns="http://www.w3.org/2000/svg"></svg>
        </div>
        <aside id="side"><p class="muted" id="hint">Click a component.</p><div id="details" class="hidden"></div></aside>
        <script type="application/json" id="data">/*DATA*/</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("data").textContent);
        const svgNS = "http://www.w3.org/2000/svg";
        const byName = new Map(data.components.map(c => [c.name, c]));
        const dependencies = new Map(data.components.map(c => [c.name, []]));
        const dependents = new Map(data.components.map(c => [c.name, []]));
        for (const e of data.edges) { dependencies.get(e.from)?.push(e.to); dependents.get(e.to)?.push(e.from); }
        const state = { layers: new Set(data.layers), app: "", selected: null, why: null };
        const width = 170, height = 34, gapX = 24, labelWidth = 110;
        const positions = new Map();

        function element(name, attributes, parent) {
          const node = document.createElementNS(svgNS, name);
          for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
          if (parent) parent.appendChild(node);
          return node;
        }
        function html(tag, text, parent, className) {
          const node = document.createElement(tag);
          if (text !== undefined) node.textContent = text;
          if (className) node.className = className;
          if (parent) parent.appendChild(node);
          return node;
        }
        function visible(name) {
          const c = byName.get(name);
          if (!c || !state.layers.has(c.layer)) return false;
          if (!state.app) return true;
          const app = data.apps.find(a => a.name === state.app);
          return !!app && app.components.includes(name);
        }
        /// Each layer a band: its implementations in rows of at most eight, then its interfaces; each row ordered by where
        /// the components above that use them sit, to cross fewer edges.
        const perRow = 8, rowHeight = 62;
        const bands = [];
        function layout() {
          positions.clear();
          bands.length = 0;
          let widest = 0, top = 0;
          for (const layer of data.layers) {
            if (!state.layers.has(layer)) continue;
            const weight = c => {
              const xs = dependents.get(c.name).map(n => positions.get(n)?.x).filter(x => x !== undefined);
              return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Infinity;
            };
            const members = data.components.filter(c => c.layer === layer && visible(c.name));
            const groups = [members.filter(c => c.kind !== "interface"), members.filter(c => c.kind === "interface")];
            let rows = 0;
            for (const group of groups) {
              group.sort((a, b) => weight(a) - weight(b) || a.name.localeCompare(b.name));
              for (let start = 0; start < group.length; start += perRow) {
                group.slice(start, start + perRow).forEach((c, index) => positions.set(c.name, { x: labelWidth + index * (width + gapX), y: top + 20 + rows * rowHeight }));
                widest = Math.max(widest, Math.min(perRow, group.length));
                rows += 1;
              }
            }
            const height = Math.max(1, rows) * rowHeight + 24;
            bands.push({ layer, top, height });
            top += height;
          }
          return { width: labelWidth + widest * (width + gapX) + 40, height: top + 10 };
        }
        function chainEdges() {
          const edges = new Set();
          if (state.selected && state.why) { const chain = shortestChain(state.selected, state.why) || []; for (let i = 1; i < chain.length; i++) edges.add(chain[i - 1] + "->" + chain[i]); }
          return edges;
        }
        function draw() {
          const svg = document.getElementById("graph");
          svg.replaceChildren();
          const size = layout();
          svg.setAttribute("width", size.width);
          svg.setAttribute("height", size.height);
          bands.forEach((band, index) => {
            element("rect", { class: "band" + (index % 2 ? " odd" : ""), x: 0, y: band.top, width: size.width, height: band.height, "data-layer": band.layer }, svg);
            element("text", { class: "band-label", x: 10, y: band.top + 40 }, svg).textContent = band.layer;
          });
          const chain = chainEdges();
          for (const e of data.edges) {
            const from = positions.get(e.from), to = positions.get(e.to);
            if (!from || !to) continue;
            const x1 = from.x + width / 2, y1 = from.y + height, x2 = to.x + width / 2, y2 = to.y;
            const bend = Math.max(30, Math.abs(y2 - y1) / 2);
            const path = element("path", { class: "edge" + (e.violation ? " violation" : "") + (chain.has(e.from + "->" + e.to) ? " chain" : ""),
              d: `M${x1},${y1} C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`, "data-from": e.from, "data-to": e.to }, svg);
            if (e.violation) element("title", {}, path).textContent = e.from + " -> " + e.to + ": " + e.violation;
          }
          for (const c of data.components) {
            const p = positions.get(c.name);
            if (!p) continue;
            const failing = c.findings.some(f => f.severity === "error") || data.edges.some(e => e.from === c.name && e.violation);
            const classes = ["node", c.kind, failing ? "failing" : "", c.unreadable ? "unreadable" : "", c.affected ? "affected" : "", state.selected === c.name ? "selected" : ""];
            const group = element("g", { class: classes.filter(Boolean).join(" "), "data-name": c.name, transform: `translate(${p.x},${p.y})` }, svg);
            element("rect", { width, height }, group);
            element("text", { x: 10, y: 21 }, group).textContent = c.name + (c.unreadable ? " (manifest not read)" : "");
            group.addEventListener("click", () => select(c.name));
          }
          document.getElementById("summary").textContent = summary();
        }
        function summary() {
          const shown = data.components.filter(c => visible(c.name));
          const failing = shown.filter(c => c.findings.some(f => f.severity === "error")).length;
          let text = `${shown.length} components, ${data.edges.filter(e => e.violation).length} edges breaking the rules, ${failing} with findings`;
          if (data.affectedBase != null) text += `; ${data.components.filter(c => c.affected).length} affected since ${data.affectedBase}`;
          return text;
        }
        function shortestChain(from, to) {
          const previous = new Map([[from, null]]);
          const queue = [from];
          while (queue.length) {
            const name = queue.shift();
            if (name === to) break;
            for (const next of dependencies.get(name) || []) if (!previous.has(next)) { previous.set(next, name); queue.push(next); }
          }
          if (!previous.has(to)) return null;
          const chain = [];
          for (let name = to; name !== null; name = previous.get(name)) chain.unshift(name);
          return chain;
        }
        function list(title, items, parent, className) {
          html("h3", title, parent);
          if (!items.length) { html("p", "none", parent, "muted"); return; }
          const ul = html("ul", undefined, parent);
          for (const item of items) html("li", item, ul, className);
        }
        function select(name, why) {
          state.selected = name;
          state.why = why || null;
          const c = byName.get(name);
          const details = document.getElementById("details");
          details.replaceChildren();
          details.classList.remove("hidden");
          document.getElementById("hint").classList.add("hidden");
          html("h2", c.name, details);
          html("p", `${c.layer} ${c.kind} at ${c.path}` + (c.unreadable ? " (its manifest could not be read: its edges are unknown)" : ""), details, "muted");
          if (c.affected) html("p", "affected since " + data.affectedBase + ": " + c.affected, details);
          list("Depends on", dependencies.get(name).slice().sort(), details);
          list("Used by", dependents.get(name).slice().sort(), details);
          list("Modules", c.modules, details);
          list("Findings", c.findings.map(f => `${f.place}: ${f.message} [${f.rule}]`), details, "finding");
          html("h3", "Why does it depend on…", details);
          const chooser = html("select", undefined, details);
          chooser.id = "why";
          html("option", "choose a component", chooser).value = "";
          for (const other of data.components.map(o => o.name).filter(n => n !== name).sort()) html("option", other, chooser).value = other;
          chooser.value = state.why || "";
          const answer = html("p", "", details);
          answer.id = "chain";
          if (state.why) {
            const chain = shortestChain(name, state.why);
            answer.textContent = chain ? chain.join(" -> ") : `${name} does not depend on ${state.why}` + (data.components.some(o => o.unreadable) ? " (as far as the manifests that could be read say)" : "");
          }
          chooser.addEventListener("change", () => select(name, chooser.value));
          draw();
        }
        function filters() {
          const box = document.getElementById("layer-filters");
          for (const layer of data.layers) {
            const label = html("label", undefined, box);
            const input = html("input", undefined, label);
            input.type = "checkbox"; input.checked = true; input.value = layer; input.className = "layer-filter";
            input.addEventListener("change", () => { input.checked ? state.layers.add(layer) : state.layers.delete(layer); draw(); });
            label.append(" " + layer + " ");
          }
          const apps = document.getElementById("app-filter");
          for (const app of data.apps) html("option", app.name, apps).value = app.name;
          apps.addEventListener("change", () => { state.app = apps.value; draw(); });
        }
        /// `#select=NAME&why=OTHER&layers=a,b&app=NAME` opens the page in that state (a link to share, and what tests use);
        /// `click=NAME` clicks the component as a reader would.
        function fromHash() {
          const options = new URLSearchParams(location.hash.slice(1));
          if (options.has("layers")) {
            const wanted = new Set(options.get("layers").split(","));
            state.layers = new Set(data.layers.filter(l => wanted.has(l)));
            for (const input of document.querySelectorAll(".layer-filter")) input.checked = state.layers.has(input.value);
          }
          if (options.has("app")) { state.app = options.get("app"); document.getElementById("app-filter").value = state.app; }
          draw();
          if (options.has("select") && byName.has(options.get("select"))) select(options.get("select"), options.get("why"));
          if (options.has("click")) document.querySelector(`.node[data-name="${CSS.escape(options.get("click"))}"]`)?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        }
        filters();
        fromHash();
        </script>
        </body>
        </html>

        """#
}
