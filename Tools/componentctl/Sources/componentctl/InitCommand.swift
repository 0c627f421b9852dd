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
        let folder = URL(fileURLWithPath: global.root ?? FileManager.default.currentDirectoryPath).standardizedFileURL
        try finish(
            try InitService.run(
                root: folder, options: InitService.Options(dryRun: dryRun, oneLayer: oneLayer),
                manifests: ManifestLoader(environment: ProcessInfo.processInfo.environment)))
    }
}
