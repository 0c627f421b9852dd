import ComponentKit
import Foundation
import Testing
import TestSupport

@Suite struct ComponentsFileEditorTests {
    private func workspace(_ yaml: String) throws -> Workspace {
        let scratch = try Scratch(named: "edit")
        try scratch.package("Packages/Business/User", name: "User")
        try scratch.write("components.yaml", yaml)
        return try scratch.load()
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func replacesOnlyTheValueKeepingQuotesTagsAndComments() throws {
        let yaml =
            "\u{FEFF}# Übersicht\nlayers: [business, core, foundation]\ncomponents:\n  user:   # the user feature\n"
            + "    path: Packages/Business/User\n    layer: business\n    version: !!str '1.0.0'   # last release\n"
        let workspace = try workspace(yaml)
        let edited = try ComponentsFileEditor.setting("version", to: "1.4.0", of: "user", in: workspace)
        #expect(text(edited) == yaml.replacingOccurrences(of: "!!str '1.0.0'", with: "!!str '1.4.0'"))
        let double = try self.workspace(yaml.replacingOccurrences(of: "!!str '1.0.0'", with: "\"1.0.0\""))
        #expect(text(try ComponentsFileEditor.setting("version", to: "2.0.0", of: "user", in: double)).contains("version: \"2.0.0\"   # last release"))
    }

    @Test func addsAndRemovesAFieldAsOneLineWithTheSiblingsIndentation() throws {
        let yaml =
            "layers: [business, core, foundation]\ncomponents:\n  user:\n      path: Packages/Business/User\n      layer: business  # note\n# trailing comment\n"
        let workspace = try workspace(yaml)
        let pinned = try ComponentsFileEditor.setting("pin", to: "1.4.0", of: "user", in: workspace)
        #expect(text(pinned) == yaml.replacingOccurrences(of: "business  # note\n", with: "business  # note\n      pin: 1.4.0\n"))
        let reloaded = try WorkspaceLoader.load(bytes: pinned, root: workspace.root)
        #expect(reloaded.component(named: "user")?.pin == "1.4.0")
        #expect(text(try ComponentsFileEditor.removing("pin", of: "user", in: reloaded)) == yaml)
    }

    @Test func editsFlowMappingsAndFilesWithoutAFinalNewline() throws {
        let flow = "layers: [business, core, foundation]\ncomponents:\n  user: {path: Packages/Business/User, layer: business}\n"
        let workspace = try workspace(flow)
        let pinned = try ComponentsFileEditor.setting("pin", to: "1.4.0", of: "user", in: workspace)
        #expect(text(pinned) == flow.replacingOccurrences(of: "layer: business}", with: "layer: business, pin: 1.4.0}"))
        #expect(text(try ComponentsFileEditor.removing("pin", of: "user", in: WorkspaceLoader.load(bytes: pinned, root: workspace.root))) == flow)

        let bare = "layers: [business, core, foundation]\ncomponents:\n  user:\n    path: Packages/Business/User\n    layer: business"
        #expect(text(try ComponentsFileEditor.setting("pin", to: "1.0.0", of: "user", in: self.workspace(bare))) == bare + "\n    pin: 1.0.0\n")
    }
}
