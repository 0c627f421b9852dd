import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginPublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Add packed archives to a feed folder (made when missing) and sign its index.")

    @OptionGroup var signing: SigningKeyOption
    @Argument(help: "Archives made by 'componentctl plugin pack'.") var archives: [String]
    @Option(help: "The feed folder, served as is by any static HTTP server.") var feed: String

    func run() throws {
        guard !archives.isEmpty else { throw ToolError("Name at least one archive to publish.", status: .usage) }
        let key = try signing.load()
        try finish(
            CommandResult(output: try FeedPublisher.publish(archives: archives.map { URL(fileURLWithPath: $0) }, feed: URL(fileURLWithPath: feed), key: key)))
    }
}
