import ArgumentParser
import ComponentKit
import Foundation

struct CILocalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "local",
        abstract: "Run the workflow on this machine as GitHub Actions would: each job in a fresh clone of HEAD, the matrix from what the first job printed.",
        discussion: """
            Emulates actions/checkout, actions/cache, actions/upload-artifact and actions/download-artifact; runs every other \
            step with bash; the container is this machine. Uncommitted changes are not part of the run. Exit 4 when a job fails.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Run as for a pull request whose base is this commit (default: a first push: everything is affected).") var base: String?
    @Option(help: "The workflow, relative to the repository.") var workflow: String = GitHubWorkflow.path
    @Flag(help: "Keep the clones and logs (their folder is printed).") var keep = false
    @Option(help: ArgumentHelp("Keep what actions/cache saves in this folder, across runs (default: nothing outlives the run).", valueName: "folder"))
    var actionsCache: String?

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-ci-\(UUID().uuidString)")
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        var runner = try LocalWorkflowRunner(
            context, base: base, folder: folder, actionsCache: actionsCache.map { URL(fileURLWithPath: $0).standardizedFileURL }
        ) { FileHandle.standardOutput.write(Data($0.utf8)) }
        if try !context.repository.changedFiles(under: "").isEmpty {
            FileHandle.standardError.write(Data("note: uncommitted changes are not part of the run (each job clones HEAD).\n".utf8))
        }
        let results = try runner.run(workflow: workflow)
        try finish(LocalWorkflowRunner.summary(results, folder: folder, kept: keep))
    }
}
