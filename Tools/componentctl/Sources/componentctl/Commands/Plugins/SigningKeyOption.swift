import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

/// Where the private signing key lives: never inside the repository.
struct SigningKeyOption: ParsableArguments {
    @Option(help: "The private signing key (default: $COMPONENTCTL_PLUGIN_KEY, else ~/.config/componentctl/plugin-signing.key).")
    var key: String?

    var path: URL {
        if let key { return URL(fileURLWithPath: key) }
        if let path = ProcessInfo.processInfo.environment["COMPONENTCTL_PLUGIN_KEY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        // $HOME first, as every tool of a shell does; the password database's home only without it.
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        return (home ?? FileManager.default.homeDirectoryForCurrentUser).appendingPathComponent(".config/componentctl/plugin-signing.key")
    }

    func load() throws -> PluginSigningKey {
        guard let text = try? String(contentsOf: path, encoding: .utf8) else {
            throw ToolError("There is no signing key at \(path.path). Make one with 'componentctl plugin keygen', or name yours with --key.", status: .usage)
        }
        do {
            return try PluginSigningKey(fileContents: text)
        } catch let error as FeedError {
            throw ToolError("\(path.path): \(error.message)", status: .usage)
        }
    }
}
