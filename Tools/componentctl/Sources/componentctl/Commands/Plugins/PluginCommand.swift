import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin", abstract: "Ship runtime plugins: make a signing key, pack a release, publish it to a feed, verify.",
        subcommands: [PluginKeygenCommand.self, PluginPackCommand.self, PluginPublishCommand.self, PluginVerifyCommand.self])
}
