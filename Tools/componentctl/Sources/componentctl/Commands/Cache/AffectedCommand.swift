import ArgumentParser
import ComponentKit
import Foundation

struct AffectedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "affected", abstract: "List the components changed between two commits, every component that depends on them, and the apps either reaches."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "The commit to compare from (a branch, tag or id).") var base: String?
    @Option(help: "The commit to compare to (default: HEAD).") var head: String?
    @Flag(help: "Count uncommitted changes in the working tree too.") var uncommitted = false
    @Flag(help: "Every component and the App (a run with no base, like a first push).") var all = false
    @Option(help: "text, json (an array of {name, path, reason}), or github-matrix (one line: {\"include\": [...]}, the components only).")
    var format: AffectedService.Format = .text

    func validate() throws {
        if !all && base == nil { throw ValidationError("Give --base REF (the commit to compare from), or --all (everything, as for a first push).") }
        if all && base != nil { throw ValidationError("Give --base REF or --all, not both.") }
        if all && (head != nil || uncommitted) { throw ValidationError("--all takes every component: drop --head and --uncommitted.") }
        if uncommitted && head != nil { throw ValidationError("--uncommitted compares the working tree, which follows HEAD: drop --head.") }
    }

    func run() throws {
        let workspace = try global.workspace()
        var rows = AffectedService.all(workspace)
        if let base {
            let context = try VersionedWorkspace(workspace)
            rows = try AffectedService.rows(context, base: base, head: head, uncommitted: uncommitted)
            if !uncommitted, head == nil, try !context.repository.changedFiles(under: context.prefix).isEmpty {
                FileHandle.standardError.write(Data("note: uncommitted changes are not counted; add --uncommitted to count them.\n".utf8))
            }
        }
        try finish(CommandResult(output: try AffectedService.render(rows, format: format)))
    }
}
