import ArgumentParser
import ComponentKit
import Foundation

struct VersionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "versions", abstract: "List a component's released versions, newest first.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text

    func run() throws {
        let workspace = try VersionedWorkspace(try global.workspace())
        try finish(try ReleaseService.versions(workspace, name: component, json: format == .json))
    }
}

struct ReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release", abstract: "Commit VERSION into components.yaml on top of HEAD and tag that commit COMPONENT@VERSION (annotated).",
        discussion: """
            A minor or patch release of a component others depend on is refused when its public API broke since the last release of
            that major version (the changes and the smallest version that allows them are listed); --force releases it anyway.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Argument(help: "The new version, greater than the last release.") var version: String
    @Option(name: .shortAndLong, help: "The tag's message.") var message: String?
    @Flag(help: "Release even though the public API broke within a major version.") var force = false

    func run() throws {
        try finish(
            try global.changing { try ReleaseService.release($0, name: component, version: version, message: message, force: force, faultPoint: faultPoint) })
    }
}

struct APIDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-diff",
        abstract: "Compare the public API of two versions of a component: breaking changes, additions, the smallest version that allows them.",
        discussion: "Both versions are built (releases from their tags' trees, never touching the working tree) and compared with the toolchain's "
            + "swift-api-digester. Exit 1 when something breaks.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Option(help: "The release to compare from (default: its newest).") var from: String?
    @Option(help: "The release to compare to (default: the working tree).") var to: String?
    @Flag(help: "Compare to the working tree (the default).") var workingTree = false
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text

    func validate() throws {
        if workingTree, to != nil { throw ValidationError("Give --to VERSION or --working-tree, not both.") }
    }

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        try finish(try APIDiffService.report(try APIDiffService.diff(context, name: component, from: from, to: to), json: format == .json))
    }
}

struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Make the integrated App use COMPONENT as it was at release VERSION; everything else stays live.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String
    @Argument(help: "A released version.") var version: String
    @Flag(help: "Check and show what would change, change nothing.") var dryRun = false

    func run() throws {
        try finish(try global.changing { try PinService.pin($0, name: component, version: version, dryRun: dryRun, faultPoint: faultPoint) })
    }
}

struct UnpinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpin", abstract: "Make the integrated App use COMPONENT's live folder again.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The component.") var component: String

    func run() throws {
        try finish(try global.changing { try PinService.unpin($0, name: component, faultPoint: faultPoint) })
    }
}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Materialize every pin and update the integrated manifest (what a fresh clone runs before building).")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Only report: exit 1 when the manifest or a checkout is out of date.") var check = false

    func run() throws {
        try finish(try global.changing { try PinService.sync($0, check: check, faultPoint: faultPoint) })
    }
}

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

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show each component's version (or that it has no release), pin, commits since its release, local changes and apps.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "text or json.") var format: ListCommand.ListFormat = .text
    @Option(help: "Only the components this app links.") var app: String?

    func run() throws {
        let context = try VersionedWorkspace(try global.workspace())
        try finish(CommandResult(output: try StatusService.render(try StatusService.rows(context, app: app), json: format == .json)))
    }
}
