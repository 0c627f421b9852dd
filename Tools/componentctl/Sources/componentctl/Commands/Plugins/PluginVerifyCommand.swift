import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check an archive or a whole feed folder offline: signatures, hashes, the index against the archives.")

    @OptionGroup var signing: SigningKeyOption
    @Argument(help: "An archive (.tar) or a feed folder.") var target: String
    @Option(help: "A trusted public key (base64; repeat for several). Default: the public half of the signing key.")
    var publicKey: [String] = []

    func run() throws {
        let keys: TrustedKeys
        do {
            keys = try TrustedKeys(publicKey.isEmpty ? [try signing.load().publicKey] : publicKey)
        } catch let error as FeedError {
            throw ToolError(error.message, status: .usage)
        }
        try finish(CommandResult(output: try FeedPublisher.verify(URL(fileURLWithPath: target), keys: keys)))
    }
}
