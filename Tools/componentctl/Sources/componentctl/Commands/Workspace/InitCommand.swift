import ArgumentParser
import ComponentKit
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make this repository's SwiftPM packages a workspace: components.yaml and a baseline, so check-layers passes at once.",
        discussion: "Run again in a workspace, it adds the packages that appeared since and names those that vanished.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print the proposal; write nothing.") var dryRun = false
    @Flag(help: "Put every component in one layer instead of proposing layers from the dependency graph.") var oneLayer = false

    func run() throws {
        // Inside an adopted repository, init is run again on the workspace that holds this folder, as any command finds it;
        // --root makes a workspace of the folder it names.
        let folder =
            global.root.map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? (try? WorkspaceLoader.locateRoot(explicit: nil)) ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        var result = try InitService.run(
            root: folder, options: InitService.Options(dryRun: dryRun, oneLayer: oneLayer),
            manifests: ManifestLoader(environment: ProcessInfo.processInfo.environment))
        if global.root == nil, folder.path != URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path {
            result.errors = "note: this folder is in the workspace at \(folder.path); init ran there\n" + result.errors
        }
        try finish(result)
    }
}
