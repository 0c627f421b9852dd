import Foundation

/// `componentctl hash`: the keys of components and apps, as a table, JSON, bare keys or their recipes.
public enum HashService {
    /// How the keys are printed.
    public enum Format: String, Sendable, CaseIterable {
        case text, json, key
    }

    /// The keys of `names` (every component and every app when both lists are empty) and of `apps`.
    public static func keys(
        _ context: VersionedWorkspace, names: [String], apps: [String], environment: Background<KeyEnvironment>,
        status: Background<WorkingTreeStatus>? = nil
    ) throws -> [ComponentKey] {
        let names = unique(names), apps = unique(apps)
        var messages = names.filter { context.workspace.component(named: $0) == nil }.map {
            ToolError.describe(context.workspace.unknownComponent($0))
        }
        for app in apps {
            do { _ = try context.workspace.app(named: app) } catch { messages.append(ToolError.describe(error)) }
        }
        if !messages.isEmpty { throw ToolError(messages.joined(separator: "\nerror: "), status: .usage) }
        var keys = try ComponentKeys(context, environment: environment, status: status)
        let everything = names.isEmpty && apps.isEmpty
        let components = everything ? context.workspace.components.map(\.name) : names
        var result = try components.map { try keys.key(of: $0) }
        let declared = everything ? context.workspace.apps : try apps.map { try context.workspace.app(named: $0) }
        result += try declared.map { try keys.appKey($0) }
        return result
    }

    /// What the keys could follow only in part, each once, as warning lines.
    private static func warnings(_ keys: [ComponentKey]) -> String {
        var seen = Set<String>()
        return keys.flatMap(\.warnings).filter { seen.insert($0).inserted }.map { "warning: \($0)\n" }.joined()
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// `keys` in `format`; `explain` adds each recipe to the text.
    public static func render(_ keys: [ComponentKey], format: Format, explain: Bool) throws -> CommandResult {
        switch format {
        case .json:
            return CommandResult(output: try JSONOutput.string(keys), errors: warnings(keys))
        case .key:
            let dirty = keys.filter(\.uncommitted).map(\.name)
            return CommandResult(
                output: keys.map { $0.key + "\n" }.joined(),
                errors: (dirty.isEmpty ? "" : "note: the keys of \(dirty.joined(separator: ", ")) include uncommitted changes.\n") + warnings(keys))
        case .text:
            var text = TextTable.render(
                [["NAME", "KEY", ""]] + keys.map { [$0.name, $0.key, $0.uncommitted ? "uncommitted changes" : ""] })
            if explain {
                for key in keys { text += "\n\(key.name):\n" + key.recipe.map { "  \($0)\n" }.joined() }
            }
            let dirty = keys.filter(\.uncommitted).map(\.name)
            if !dirty.isEmpty {
                text += "Keys of \(dirty.joined(separator: ", ")) include uncommitted changes (committed as they are, the keys stay the same).\n"
            }
            let inexact = Set(keys.flatMap(\.inexact)).sorted()
            if !inexact.isEmpty {
                text +=
                    "warning: \(inexact.joined(separator: ", ")) \(inexact.count == 1 ? "is" : "are") required by a range, not an exact version or "
                    + "revision: keys follow the requirement, not the version a build resolves. Write exact: \"x.y.z\" in the manifests.\n"
            }
            return CommandResult(output: text, errors: warnings(keys))
        }
    }
}
