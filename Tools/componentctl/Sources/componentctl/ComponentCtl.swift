import ArgumentParser
import ComponentKit
import Foundation

/// The entry point: runs the command and maps every outcome to the documented exit codes.
@main
struct ComponentCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "componentctl",
        abstract: "Keeps a componentized Swift workspace honest: layering, versions, builds.",
        discussion: "Exit codes: 0 ok; 1 findings; 2 usage or configuration error, or a refusal by the rules; 3 git or environment error; "
            + "4 build or test failed; 130, 143 or 129 stopped by Ctrl-C, SIGTERM or SIGHUP while it ran a build, test or command.",
        subcommands: [
            InitCommand.self, CreateCommand.self, ListCommand.self, CheckLayersCommand.self, WhyCommand.self, GraphCommand.self,
            VersionsCommand.self, ReleaseCommand.self, APIDiffCommand.self, PinCommand.self, UnpinCommand.self, SyncCommand.self,
            AffectedCommand.self, StatusCommand.self, HashCommand.self, CachedCommand.self, CICommand.self, BuildCommand.self, TestCommand.self,
            RunCommand.self, NewCommand.self, RemoveCommand.self,
            PluginCommand.self, SignCommand.self,
            DevCommand.self,
        ])

    // Declared here too, so `componentctl --root DIR <command>` works as well as `<command> --root DIR`.
    @OptionGroup var global: GlobalOptions

    static func main() {
        // A parent may start us with signals blocked (a test runner's worker thread does); every thread and child
        // process would inherit that, and a request to stop would never arrive. Start as a shell would start us.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        StopForwarding.install()
        let status: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            status = ExitStatus.ok.rawValue
        } catch let exit as ExitCode {
            status = exit.rawValue
        } catch let error as any ComponentctlError {
            // A components.yaml error is already a list of `components.yaml:line:col: error: ...` lines.
            let isDiagnosticList = if case WorkspaceError.invalid = error { true } else { error is YAMLError }
            FileHandle.standardError.write(Data(((isDiagnosticList ? "" : "error: ") + ToolError.describe(error) + "\n").utf8))
            status = error.exitStatus.rawValue
        } catch {
            // swift-argument-parser's own errors: help (exit 0, on standard output) and usage errors.
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                status = ExitStatus.ok.rawValue
            } else if code == .validationFailure || code == ExitCode(64) {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                status = ExitStatus.usage.rawValue
            } else {
                FileHandle.standardError.write(Data("error: \(ToolError.describe(error))\n".utf8))
                status = ExitStatus(of: error).rawValue
            }
        }
        Foundation.exit(status)
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The workspace root (default: the nearest folder upwards holding components.yaml).")
    var root: String?

    /// Loads the workspace for a command that only reads it (``WorkspaceAccess/read(root:report:)``).
    func workspace() throws -> Workspace {
        try WorkspaceAccess.read(root: try WorkspaceLoader.locateRoot(explicit: root), report: reportToStandardError)
    }

    /// Runs `body` holding the workspace lock, on the workspace and its git repository (``WorkspaceAccess/change(root:report:_:)``).
    func changing(_ body: (VersionedWorkspace) throws -> CommandResult) throws -> CommandResult {
        try WorkspaceAccess.change(root: try WorkspaceLoader.locateRoot(explicit: root), report: reportToStandardError, body)
    }
}

private func reportToStandardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// For the fault-injection tests: `COMPONENTCTL_FAULT=<point>` (or `random`) kills the process with
/// SIGKILL at that point of a transaction, as a power cut or `kill -9` would.
func faultPoint(_ point: String) {
    guard let wanted = ProcessInfo.processInfo.environment["COMPONENTCTL_FAULT"] else { return }
    if wanted == point || (wanted == "random" && Int.random(in: 0..<4) == 0) {
        kill(getpid(), SIGKILL)
    }
}

/// Prints a command's result and ends with its exit code.
func finish(_ result: CommandResult) throws {
    if !result.output.isEmpty { FileHandle.standardOutput.write(Data(result.output.utf8)) }
    if !result.errors.isEmpty { FileHandle.standardError.write(Data(result.errors.utf8)) }
    if result.status != .ok { throw ExitCode(result.status.rawValue) }
}

/// The file a write to `url` lands in: through links (a dangling one too) and linked folders.
private func writtenFile(_ url: URL) -> URL {
    var file = url.standardizedFileURL
    for _ in 0..<40 {
        guard FileStatus.isSymbolicLink(file), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file.path) else { break }
        file = URL(fileURLWithPath: target, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
    }
    return file.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(file.lastPathComponent)
}

/// Writes `text` to `path`, or to standard output without one.
func emit(_ text: String, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    let url = URL(fileURLWithPath: path)
    if FileStatus.isFolder(url) { throw ToolError("-o \(path) is a folder; name a file to write to.", status: .usage) }
    let file = writtenFile(url)
    let name = file.lastPathComponent
    // An output never replaces what componentctl, SwiftPM or git read: a mistyped -o would lose the team's configuration.
    let inputs = [WorkspaceLoader.fileName, InitService.baselineFile, ".gitignore", ".gitattributes", ".gitmodules", "Package.resolved"]
    if inputs.contains(name) || name.hasSuffix(".swift") || file.pathComponents.contains(".git") {
        throw ToolError(
            "-o \(path) would write '\(name)', where componentctl, SwiftPM or git read their input; write the output to another file.", status: .usage)
    }
    try AtomicFile.write(Data(text.utf8), to: file)
}
