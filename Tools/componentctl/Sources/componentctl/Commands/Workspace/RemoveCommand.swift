import ArgumentParser
import ComponentKit
import Foundation

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take components out of the workspace: components.yaml and its apps, Package.swift's generated blocks, the apps' wiring, their folders.",
        discussion: """
            Refuses while a component that stays depends on one of them or a Swift file imports their modules, and \
            deletes a folder only when git holds all of it (build folders aside); --keep-files only unregisters.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The components, removed together.") var components: [String]
    @Flag(help: "Leave their folders on disk.") var keepFiles = false

    func validate() throws {
        if components.isEmpty { throw ValidationError("Name at least one component to remove. See 'componentctl list'.") }
    }

    func run() throws {
        try finish(try global.changing { try RemoveService.remove($0, names: components, keepFiles: keepFiles, faultPoint: faultPoint) })
    }
}
