import ArgumentParser
import ComponentKit
import Foundation
import PluginFeed

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
