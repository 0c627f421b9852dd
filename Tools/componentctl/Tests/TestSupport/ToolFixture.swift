import Foundation

extension Scratch {
    /// The fixture workspace with componentctl's own sources (and the packages it depends on) where the
    /// generated CI workflow builds it from, and the setup script its jobs run: what a team's template
    /// holds. Committed as a new repository.
    public static func fixtureWithTool() throws -> Scratch {
        let scratch = try fixture()
        for folder in ["Tools/componentctl", "Packages/Foundation/PluginFeed"] {
            try copyTree(sampleRoot.appendingPathComponent(folder), to: scratch.root.appendingPathComponent(folder))
        }
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleRoot.appendingPathComponent("scripts/setup.sh"), to: scratch.root.appendingPathComponent("scripts/setup.sh"))
        try scratch.commitAsNewRepository()
        return scratch
    }
}
