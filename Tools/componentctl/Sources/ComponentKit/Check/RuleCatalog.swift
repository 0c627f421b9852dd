/// Every rule `check-layers` reports, with what it forbids: the ids components.yaml's `checks.severity` may name and
/// SARIF logs describe.
public enum RuleCatalog {
    /// Each rule's id and a one-sentence description.
    public static let descriptions: [String: String] = [
        "layer-order": "A component depends on a component of a higher layer.",
        "implementation-to-implementation": "A component depends on an implementation of its own layer where only interfaces are allowed.",
        "unlisted-same-layer": "A same-layer dependency that components.yaml does not allow.",
        "same-layer-forbidden": "A dependency between components of a layer that allows none.",
        "interface-purity": "An interface package depends on an implementation.",
        "cycle": "Components depend on each other in a cycle.",
        "implicit-import": "A source file imports a module its target does not declare.",
        "redundant-dependency": "A declared dependency that nothing imports.",
        "unknown-dependency": "A package dependency that is not a registered component.",
        "unreadable-manifest": "A Package.swift SwiftPM cannot evaluate.",
        "route-collision": "Two components declare routes of one URL shape.",
        "degrade-rule-unmatched": "A degrade rule of a shipped table names no route of the components the table serves.",
        "degrade-table": "A shipped degrade table that is no degrade table, or a rule pattern the router would refuse.",
        "shell-implementation": "The shell every app runs in imports a business implementation.",
        "interface-behaviour": "An interface package holds behaviour instead of declarations only.",
        "route-scheme": "A component's route uses a scheme other than the workspace's.",
        "test-support-in-production": "A production target depends on an interface's test-support fakes.",
        "closed-app": "An app contains a component that uses a service whose provider the app leaves out.",
        "plugin-depends-on-host": "A plugin depends on the implementation of the feature it extends.",
        "plugin-depends-on-plugin": "A plugin depends on another plugin.",
        "plugin-depends-on-implementation": "A plugin depends on a business implementation.",
        "host-depends-on-plugin": "A feature depends on a plugin of its own extension point.",
        "depends-on-plugin": "A component depends on a plugin, which only the App's generated wiring creates.",
        "plugin-definition": "A plugin defines no PluginDefinition, or one whose id is not the component's name.",
        "plugin-setting": "A plugin setting in components.yaml that the plugin's schema does not accept.",
        "plugin-route-overlap": "A plugin's route would answer another component's links.",
        "undeclared-plugin": "A plugin no extension point lists in `plugins:`.",
        "unknown-extension-point": "components.yaml names an extension point no interface declares.",
        "extension-point-id": "An extension point's id is not a string literal.",
        "runtime-plugin-declared": "A runtime plugin listed under `plugins:`, which only linked plugins may be.",
        "runtime-plugin-static-dependency": "A runtime plugin links a component statically instead of its shared library.",
        "runtime-plugin-host": "A runtime plugin links a shared library the App does not list.",
    ]
}
