import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginPackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack", abstract: "Build runtime plugin NAME from its release tag VERSION as a shared library and write a signed archive.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var signing: SigningKeyOption
    @Argument(help: "The runtime plugin (runtime: true in components.yaml).") var name: String
    @Argument(help: "A released version (tag NAME@VERSION).") var version: String
    @Option(help: "The folder to write NAME-VERSION.tar into (default: .build-plugins/archives).") var output: String?

    func run() throws {
        let key = try signing.load()
        let context = try VersionedWorkspace(try global.workspace())
        let folder = output.map { URL(fileURLWithPath: $0) } ?? context.workspace.root.appendingPathComponent(RuntimePluginPacker.scratchFolder + "/archives")
        let (archive, manifest) = try RuntimePluginPacker.pack(
            context, name: name, version: version, key: key, output: folder, report: { FileHandle.standardError.write(Data($0.utf8)) })
        let api = manifest.hostAPI.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        try finish(
            CommandResult(
                output: "Packed \(manifest.id) \(manifest.version) into \(archive.path) (\(manifest.size / 1024) KB library, entry \(manifest.entry)).\n"
                    + "Built against: \(api); Swift \(manifest.swift).\n"))
    }
}
