import Foundation

extension Scratch {
    /// The fixture workspace with componentctl's own sources (and the packages it depends on) where the
    /// generated CI workflow builds it from, and the setup script its jobs run: what a team's template
    /// holds. Committed as a new repository.
    public static func fixtureWithTool() throws -> Scratch {
        let scratch = try fixture()
        for folder in ["Tools/componentctl", "Packages/Foundation/PluginFeed"] {
            try copyTracked(sampleRoot.appendingPathComponent(folder), to: scratch.root.appendingPathComponent(folder))
        }
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleRoot.appendingPathComponent("scripts/setup.sh"), to: scratch.root.appendingPathComponent("scripts/setup.sh"))
        try scratch.commitAsNewRepository()
        return scratch
    }

    /// Copies the files of `source` that are not build output (its `.build` folders).
    private static func copyTracked(_ source: URL, to destination: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), isFolder.boolValue else {
            return try FileManager.default.copyItem(at: source, to: destination)
        }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where !name.hasPrefix(".build") && name != ".swiftpm" {
            try copyTracked(source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }
}
