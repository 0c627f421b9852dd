import ComponentKit
import Foundation
import Testing
import TestSupport

/// The usage blocks of the READMEs and `componentctl --help` name the same commands and options, so the
/// documentation cannot drift from the tool.
@Suite struct UsageDocTests {
    /// The `componentctl [--root DIR] <command>` block of a README: each command's words and options, by name.
    private func usageBlock(_ path: String) throws -> [String: String] {
        let text = try String(contentsOf: Scratch.sampleRoot.appendingPathComponent(path), encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```").first { $0.contains("componentctl [--root DIR] <command>") })
        var commands: [String: String] = [:]
        var current: [String] = []
        for line in block.split(separator: "\n") where line.hasPrefix("  ") {
            if line.hasPrefix("  "), !line.hasPrefix("   "), let first = line.split(separator: " ").first {
                current = first.split(separator: "|").map(String.init)
            }
            for name in current { commands[name, default: ""] += line + "\n" }
        }
        return commands
    }

    /// The subcommands `componentctl --help` lists.
    private func subcommands() throws -> [String] {
        let help = try ToolProcess.run(["--help"]).output
        return names(in: try #require(help.components(separatedBy: "SUBCOMMANDS:").last))
    }

    /// The command names a help text's SUBCOMMANDS section lists.
    private func names(in section: String) -> [String] {
        section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first, name.first?.isLowercase == true else { return nil }
            return String(name)
        }
    }

    /// Each option of `componentctl help COMMAND` as its accepted spellings (`-c`, `--configuration`); for
    /// a command with subcommands (`plugin`), the options of every one of them.
    private func options(of command: String) throws -> [[String]] {
        let help = try ToolProcess.run(["help"] + command.split(separator: " ").map(String.init)).output
        if let section = help.components(separatedBy: "SUBCOMMANDS:").dropFirst().first {
            return try names(in: section).flatMap { try options(of: command + " " + $0) }
        }
        guard let section = help.components(separatedBy: "OPTIONS:").last, help.contains("OPTIONS:") else { return [] }
        return section.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix("  -") else { return nil }
            let spelling = line.split(separator: " ").prefix { $0.hasPrefix("-") }.flatMap { $0.split(separator: ",") }
            let names = spelling.flatMap { $0.split(separator: "/") }.map(String.init)
            return names.contains("--help") || names.contains("--root") ? nil : names
        }
    }

    @Test(arguments: ["docs/componentctl.md", "Tools/componentctl/README.md"])
    func theUsageBlockNamesEveryCommandAndOptionOfTheHelp(readme: String) throws {
        let documented = try usageBlock(readme)
        let commands = try subcommands()
        #expect(Set(documented.keys) == Set(commands), "\(readme) documents \(documented.keys.sorted()), the tool has \(commands)")
        for command in commands {
            let line = documented[command] ?? ""
            for spellings in try options(of: command) {
                #expect(spellings.contains { line.contains($0) }, "\(readme): '\(command)' does not mention \(spellings.joined(separator: "/"))")
            }
            for written in line.split(whereSeparator: { " [|]".contains($0) }) where written.hasPrefix("--") {
                let all = try options(of: command).flatMap { $0 } + ["--root"]
                #expect(all.contains(String(written)), "\(readme): '\(command)' documents \(written), which the tool does not take")
            }
        }
    }

    @Test func theReferenceListsEveryRuleWithWhatItForbidsAndAFix() throws {
        let text = try String(contentsOf: Scratch.sampleRoot.appendingPathComponent("docs/componentctl.md"), encoding: .utf8)
        let table = try #require(
            text.components(separatedBy: "| Rule | What it forbids | The usual fix |\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        var documented: [String: String] = [:]
        for row in table.split(separator: "\n").dropFirst() {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 5 && !cells[3].isEmpty, "a row with its three cells: \(row)")
            guard cells.count == 5 else { continue }
            documented[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[2]
        }
        #expect(Set(documented.keys) == Set(RuleCatalog.descriptions.keys))
        for (rule, description) in RuleCatalog.descriptions { #expect(documented[rule] == description, "\(rule)") }
    }

    @Test func theAdoptingGuidesComponentsFileIsOneComponentctlReads() throws {
        let text = try String(contentsOf: Scratch.sampleRoot.appendingPathComponent("docs/adopting.md"), encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let workspace = try WorkspaceLoader.load(bytes: Array(block.utf8), root: Scratch.sampleRoot, checkingFolders: false)
        #expect(workspace.checks.severity["implicit-import"] == .warning)
        #expect(workspace.checks.systemModules == ["CompanySDK"])
        #expect(workspace.rules.sameLayer["core"] == .any)
    }

    @Test func theAdoptingGuideNamesEveryFolderInitSkipsAndIgnores() throws {
        let text = try String(contentsOf: Scratch.sampleRoot.appendingPathComponent("docs/adopting.md"), encoding: .utf8)
        let table = try #require(text.components(separatedBy: "| Folder | Filled by |").dropFirst().first?.components(separatedBy: "\n\n").first)
        let named = table.split(separator: "\n").dropFirst().flatMap { row in
            (row.split(separator: "|").first ?? "").split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        #expect(Set(named) == PackageDiscovery.skippedFolders)
        #expect(named.count == PackageDiscovery.skippedFolders.count)
        let ignoredRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("| Ignore componentctl's folders |") })
        for folder in InitService.ignoredFolders { #expect(ignoredRow.contains("`\(folder)`"), "\(folder)") }
    }
}
