import ArgumentParser
import ComponentKit
import Foundation

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Scaffold a component that passes check-layers and builds and tests alone at once.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The name, in UpperCamelCase (the folder's name).") var name: String
    @Option(help: "Its layer.") var layer: String?
    @Flag(help: "Also scaffold its interface package (always done for the top layer).") var interface = false
    @Option(
        help: ArgumentHelp(
            "Scaffold a plugin of this extension point instead (<interface or feature>/<point>, like product/sections), from the template its interface ships.",
            valueName: "point")) var plugin: String?
    @Option(
        name: .customLong("app"),
        help: ArgumentHelp("Add it to this app of components.yaml (repeat for several).", valueName: "name")) var apps: [String] = []

    func validate() throws {
        switch (layer, plugin) {
        case (nil, nil): throw ValidationError("Give the component's layer (--layer business), or --plugin POINT for a plugin.")
        case (.some, .some): throw ValidationError("A plugin's layer is the top one: give --plugin POINT or --layer LAYER, not both.")
        default: if plugin != nil && interface { throw ValidationError("A plugin has no interface package of its own: drop --interface.") }
        }
    }

    func run() throws {
        try finish(
            try global.changing { context in
                if let plugin { return try PluginScaffold.create(context.workspace, name: name, point: plugin, apps: apps, faultPoint: faultPoint) }
                return try ScaffoldService.create(
                    context.workspace, name: name, layer: layer ?? "", interface: interface, apps: apps, faultPoint: faultPoint)
            })
    }
}
