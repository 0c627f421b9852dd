import ArgumentParser
import ComponentKit
import Foundation

struct ReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release", abstract: "Commit VERSION into components.yaml on top of HEAD and tag that commit COMPONENT@VERSION (annotated).",
        discussion: """
            A minor or patch release of a component others depend on is refused when its public API broke since the last release of
            that major version (the changes and the smallest version that allows them are listed); --force releases it anyway.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Argument(help: "The new version, greater than the last release.") var version: String
    @Option(name: .shortAndLong, help: "The tag's message.") var message: String?
    @Flag(help: "Release even though the public API broke within a major version.") var force = false

    func run() throws {
        try finish(
            try global.changing { try ReleaseService.release($0, name: component, version: version, message: message, force: force, faultPoint: faultPoint) })
    }
}
