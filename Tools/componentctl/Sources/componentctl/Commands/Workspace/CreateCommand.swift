import ArgumentParser
import ComponentKit
import Foundation

struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a new workspace for your own app from this one: its framework, one app and a starter feature, none of its sample.",
        discussion: """
            Copies what git tracks or would track, leaves out the top layer's components, the apps' folders and \
            workspace.sample, names the workspace, its scheme and its one app, scaffolds the starter feature and syncs. \
            FOLDER must be new or empty, outside this workspace; nothing is left behind when the command fails.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The new workspace's folder.", valueName: "folder")) var folder: String
    @Option(help: "Its name, in UpperCamelCase: the app's product and the settings' prefix come from it.") var name: String
    @Option(help: "The URL scheme of its routes (default: the name in lower case).") var scheme: String?
    @Option(help: "The starter feature's name, in UpperCamelCase; the app opens it first.") var feature = "Home"

    func run() throws {
        let root = try WorkspaceLoader.locateRoot(explicit: global.root)
        let source = try WorkspaceAccess.read(root: root) { FileHandle.standardError.write(Data($0.utf8)) }
        try finish(
            try CreateService.create(
                from: source, into: URL(fileURLWithPath: folder), options: CreateService.Options(name: name, scheme: scheme, feature: feature)))
    }
}
