import ComponentKit
import Foundation
import Testing
import TestSupport

/// The plugin model on the plugin fixture: what components.yaml may say of plugins, and the check-layers
/// rules that keep plugins apart from their host, from each other and from business implementations.
@Suite struct PluginModelTests {
    private func findings(_ scratch: Scratch) throws -> [Diagnostic] {
        LayerChecker(analysis: try WorkspaceAnalysis.analyze(try scratch.load())).findings()
    }

    /// The configuration errors loading `scratch` reports.
    private func loadErrors(_ scratch: Scratch) throws -> [String] {
        do {
            _ = try scratch.load()
            return []
        } catch WorkspaceError.invalid(let diagnostics) {
            return diagnostics.map(\.text)
        }
    }

    @Test func theDeclarationIsReadInOrderWithTypedSettings() throws {
        let workspace = try Scratch.pluginFixture().load()
        #expect(workspace.plugins.map(\.plugin) == ["ribbon", "stamp"])
        #expect(workspace.plugins.map(\.isEnabled) == [true, false])
        #expect(workspace.plugins[0].settings.map(\.value) == [.string("New"), .int(2)])
        #expect(workspace.component(named: "ribbon")?.extends == "shelf-interface/badges")
        #expect(workspace.host(of: try #require(workspace.component(named: "ribbon")))?.name == "shelf")
    }

    @Test func thePluginFixtureIsClean() throws {
        #expect(try findings(Scratch.pluginFixture()).isEmpty)
    }

    @Test func settingValuesAreTypedAsYAMLWritesThem() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", "        label: New\n        size: 2\n", with: "        label: \"3\"\n        size: 2.5\n")
        let entry = try #require(try scratch.load().plugins.first)
        #expect(entry.settings.map(\.value) == [.string("3"), .number(2.5)])
    }

    @Test(arguments: [
        ("    - plugin: stamp\n", "    - plugin: stmp\n", "components.yaml:78:15: error: unknown plugin 'stmp'. Fix: did you mean 'stamp'?"),
        (
            "    - plugin: stamp\n      enabled: false\n", "    - plugin: ribbon\n",
            "error: plugin 'ribbon' is listed twice under 'shelf-interface/badges' (first at line 74)"
        ),
        (
            "  shelf-interface/badges:\n", "  shelf-interface/covers:\n",
            "error: plugin 'ribbon' extends 'shelf-interface/badges' (its 'extends:'), not 'shelf-interface/covers'. Fix: list it under 'shelf-interface/badges', or correct"
        ),
        (
            "  shelf-interface/badges:\n", "  shelf/badges:\n",
            "error: extension point 'shelf/badges' names 'shelf', which is not an interface. Fix: extension points live in interfaces: write 'shelf-interface/badges'"
        ),
        ("  shelf-interface/badges:\n", "  badges:\n", "error: extension point 'badges' is not '<interface component>/<point>'"),
        ("      enabled: false\n", "      enabled: maybe\n", "error: enabled of plugin 'stamp' must be true or false (unquoted), not 'maybe'"),
        ("      enabled: false\n", "      enabled: \"false\"\n", "error: enabled of plugin 'stamp' must be true or false (unquoted), not 'false'"),
        ("        size: 2\n", "        size: ~\n", "components.yaml:77:15: error: setting 'size' of plugin 'ribbon' has no value"),
        ("    - plugin: stamp\n", "    - plugin: shelf\n", "error: 'shelf' is not a plugin (it is of kind implementation)"),
        (
            "    kind: plugin\n    extends: shelf-interface/badges\n    version: 1.0.0\n  stamp:", "    kind: plugin\n    version: 1.0.0\n  stamp:",
            "error: plugin 'ribbon' does not say which extension point it extends"
        ),
        (
            "    interface: shelf-interface\n", "    interface: shelf-interface\n    extends: shelf-interface/badges\n",
            "error: component 'shelf' says 'extends' but is of kind implementation"
        ),
        (
            "    kind: plugin\n    extends: shelf-interface/badges\n    version: 1.0.0\n  stamp:",
            "    kind: plugn\n    extends: shelf-interface/badges\n    version: 1.0.0\n  stamp:", "Fix: use implementation, interface or plugin"
        ),
    ])
    func declarationMistakesAreConfigurationErrorsWithTheirPlace(old: String, new: String, expected: String) throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", old, with: new)
        let errors = try loadErrors(scratch)
        #expect(errors.contains { $0.hasPrefix("components.yaml:") && $0.contains(expected) }, "\(errors)")
    }

    @Test func aPluginMayNotDependOnTheFeatureItExtends() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addDependency(component: "Packages/Plugins/Ribbon", target: "Ribbon", on: "../../Business/Shelf", module: "Shelf", source: "Host.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["plugin-depends-on-host"])
        #expect(found.first?.path == "Packages/Plugins/Ribbon/Package.swift")
        #expect(found.first?.line == 8)
        #expect(found.first?.fix?.contains("depend on 'shelf-interface' instead") == true)
    }

    @Test func aPluginMayNotDependOnAnotherPlugin() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addDependency(component: "Packages/Plugins/Ribbon", target: "Ribbon", on: "../Stamp", module: "Stamp", source: "Other.swift")
        #expect(try findings(scratch).map(\.rule) == ["plugin-depends-on-plugin"])
    }

    @Test func aPluginMayNotDependOnAnyBusinessImplementation() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addDependency(component: "Packages/Plugins/Stamp", target: "Stamp", on: "../../Business/Reader", module: "Reader", source: "R.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["plugin-depends-on-implementation"])
        #expect(found.first?.fix?.contains("depend on 'reader-interface' instead") == true)
    }

    @Test func theHostMayNotDependOnItsPlugins() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.addDependency(component: "Packages/Business/Shelf", target: "Shelf", on: "../../Plugins/Ribbon", module: "Ribbon", source: "P.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["host-depends-on-plugin"])
        #expect(found.first?.line == 11)
        try scratch.addDependency(component: "Packages/Business/Reader", target: "Reader", on: "../../Plugins/Stamp", module: "Stamp", source: "S.swift")
        #expect(try findings(scratch).map(\.rule).sorted() == ["depends-on-plugin", "host-depends-on-plugin"])
    }

    @Test func aPointNoInterfaceDeclaresIsFoundAtEveryUse() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(
            in: "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/ShelfBadges.swift", "\"shelf-interface/badges\"", with: "\"shelf-interface/bdges\"")
        let found = try findings(scratch).filter { $0.rule == "unknown-extension-point" }
        #expect(found.map(\.path) == ["components.yaml", "components.yaml", "components.yaml", "components.yaml"])
        #expect(found.map(\.line) == [25, 31, 74, 78])
        #expect(found.first?.fix == "did you mean 'shelf-interface/bdges'?")
    }

    @Test func aPointIdMustNameItsInterface() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(
            in: "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/ShelfBadges.swift",
            "public enum ShelfBadges: ExtensionPoint {\n    public static let id: ExtensionPointID = \"shelf-interface/badges\"",
            with: "public enum ShelfBadges: ExtensionPoint {\n    public static let id: ExtensionPointID = \"reader-interface/badges\"")
        let found = try findings(scratch).filter { $0.rule == "extension-point-id" }
        #expect(found.map(\.path) == ["Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/ShelfBadges.swift"])
        #expect(found.first.map { "\($0.line):\($0.column)" } == "5:46")
    }

    @Test func settingsAreCheckedAgainstThePluginsSchema() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", "        label: New\n        size: 2\n", with: "        label: 7\n        size: big\n        colour: red\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["plugin-setting", "plugin-setting", "plugin-setting"])
        #expect(
            found.map(\.text) == [
                "components.yaml:76:16: error: setting 'label' of plugin 'ribbon' must be string, not int. Fix: quote the value [plugin-setting]",
                "components.yaml:77:15: error: setting 'size' of plugin 'ribbon' must be int, not string. Fix: write a value of type int (quoted values are strings) [plugin-setting]",
                "components.yaml:78:17: error: plugin 'ribbon' has no setting 'colour'. Fix: its settings are label, size (Packages/Plugins/Ribbon/Sources/Ribbon/RibbonPlugin.swift:6) [plugin-setting]",
            ])
    }

    @Test func aPluginDefinesOneDefinitionWithItsOwnName() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "Packages/Plugins/Stamp/Sources/Stamp/StampPlugin.swift", "\"stamp\"", with: "\"stmp\"")
        let found = try findings(scratch)
        #expect(
            found.map(\.text) == [
                "Packages/Plugins/Stamp/Sources/Stamp/StampPlugin.swift:5:13: error: StampPlugin's id is 'stmp', not the component's name 'stamp'. Fix: write 'public static let id = \"stamp\"' [plugin-definition]"
            ])
        try scratch.write("Packages/Plugins/Stamp/Sources/Stamp/StampPlugin.swift", "public struct Nothing {}\n")
        #expect(try findings(scratch).filter { $0.severity == .error }.map(\.rule) == ["plugin-definition"])
    }

    @Test func aPluginNoPointListsIsAWarning() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(in: "components.yaml", "    - plugin: stamp\n      enabled: false\n", with: "")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["undeclared-plugin"])
        #expect(found.first?.severity == .warning)
    }

    @Test func whatComponentctlCannotReadFromASourceIsAFindingNotAGuess() throws {
        let scratch = try Scratch.pluginFixture()
        try scratch.replace(
            in: "Packages/Plugins/Ribbon/Sources/Ribbon/RibbonPlugin.swift", #"public static let settings: PluginSchema = ["label": .string, "size": .int]"#,
            with: "public static let settings: PluginSchema = makeSchema()")
        try scratch.replace(
            in: "Packages/Interfaces/ShelfInterface/Sources/ShelfInterface/ShelfBadges.swift", #""shelf-interface/badges""#,
            with: #""shelf-interface/" + "badges""#)
        let found = try findings(scratch).filter { $0.severity == .error }
        #expect(found.contains { $0.rule == "plugin-definition" && $0.message.contains("settings are not a dictionary literal") })
        #expect(found.contains { $0.rule == "extension-point-id" && $0.message == "the id of extension point ShelfBadges is not a string literal" })
        #expect(!found.contains { $0.rule == "plugin-setting" }, "no guess about settings it cannot read")
    }
}
