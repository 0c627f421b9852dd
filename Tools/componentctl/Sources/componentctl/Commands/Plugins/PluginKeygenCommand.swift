import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginKeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Make an Ed25519 key pair: the private key stays on this machine, the App gets the public key.")

    @OptionGroup var signing: SigningKeyOption
    @Flag(help: "Replace an existing key (Apps that trust the old one refuse what the new one signs).") var force = false

    func run() throws {
        let path = signing.path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ToolError(
                "\(path.path) is a folder; --key names the key's file, like \(path.appendingPathComponent("plugin-signing.key").path).", status: .usage)
        }
        if FileManager.default.fileExists(atPath: path.path), !force {
            throw ToolError("\(path.path) exists already; keep it, or pass --force to replace it.", status: .usage)
        }
        // Where the key really goes: through a link at its place, into the folder the link names.
        let destination = try AtomicFile.resolved(path)
        if let repository = GitRepository.workTree(containing: destination.deletingLastPathComponent()) {
            throw ToolError(
                "\(path.path)\(destination == path ? "" : " (a link to \(destination.path))") is inside the git repository \(repository.path), "
                    + "where a commit would publish the private key. "
                    + "Name a place outside it with --key (the default is ~/.config/componentctl/plugin-signing.key).", status: .usage)
        }
        let key = PluginSigningKey()
        try FileStatus.createFolder(path.deletingLastPathComponent(), purpose: "the signing key")
        // Created private: a key written 0644 and narrowed afterwards is readable by everyone for a moment.
        try AtomicFile.write(Data(key.fileContents.utf8), to: path, mode: 0o600)
        try finish(
            CommandResult(
                output: """
                    Wrote the private key to \(path.path) (mode 600). Keep it out of the repository and back it up:
                    a lost key means a new key and an App release before anything new can be published.
                    The public key, for the App's plugin-feed.json "keys":
                    \(key.publicKey)

                    """))
    }
}
