import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

struct PluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin", abstract: "Ship runtime plugins: make a signing key, pack a release, publish it to a feed, verify.",
        subcommands: [PluginKeygenCommand.self, PluginPackCommand.self, PluginPublishCommand.self, PluginVerifyCommand.self])
}

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

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign files the App fetches from a server (a remote home layout or degrade table): writes FILE.sig beside each.",
        discussion: """
            The App takes a remote file only with a valid signature by a key its remote-config.json trusts, and only when its
            "sequence" is no lower than the copy it has: raise the sequence in the file before signing a new version.
            """)

    @OptionGroup var signing: SigningKeyOption
    @Argument(help: "The files to sign.") var files: [String]

    func run() throws {
        guard !files.isEmpty else { throw ToolError("Name at least one file to sign.", status: .usage) }
        let key = try signing.load()
        // Every file is read and signed before any signature is written: a bad name leaves every .sig as it was.
        let signatures = try files.map { file in
            let url = URL(fileURLWithPath: file)
            guard FileStatus.isRegularFile(url), let data = FileManager.default.contents(atPath: url.path) else {
                let what = FileStatus.isRealFolder(url) ? "is a folder" : FileStatus.exists(url) ? "cannot be read" : "does not exist"
                throw ToolError("\(file) \(what); nothing was signed. Name the files to sign.", status: .usage)
            }
            let signature = try AtomicFile.resolved(url.appendingPathExtension("sig"))
            if FileStatus.isFolder(signature) || access(signature.deletingLastPathComponent().path, W_OK) != 0 {
                throw ToolError(
                    "\(signature.path) cannot be written (\(FileStatus.isFolder(signature) ? "it is a folder" : "its folder is not writable")); "
                        + "nothing was signed.", status: .usage)
            }
            return (file: file, signature: url.appendingPathExtension("sig"), bytes: try key.sign(data))
        }
        var output = ""
        for signed in signatures {
            do {
                AtomicFile.removeStaleTemporaries(of: signed.signature)
                try AtomicFile.write(signed.bytes, to: signed.signature)
            } catch {
                FileHandle.standardOutput.write(Data(output.utf8))
                throw ToolError(
                    "\(ToolError.describe(error)) The files listed above were signed; sign the rest again once it is fixed.", status: .environment)
            }
            output += "Signed \(signed.file) into \(signed.signature.path).\n"
        }
        try finish(CommandResult(output: output))
    }
}
