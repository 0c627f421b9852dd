import Foundation
import Testing
import TestSupport

@testable import ComponentKit

/// Keys and `affected --uncommitted` rest on the list of changed paths libgit2's status gives: it must be git's own,
/// whatever the working tree holds.
@Suite struct WorkingTreeStatusTests {
    /// Names that sort next to the folder separator in git's byte order ("a-b" < "a.b" < "a/" < "a0").
    private static let names = ["a", "a-b", "a.b", "a0", "ab", "B", "x y"]

    /// Random working trees, each committed, then changed as a team's tree is between commits; the changed paths are
    /// compared with git's own status after every change.
    @Test(arguments: 0..<24)
    func theChangedPathsAreThoseGitStatusLists(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        let scratch = try Scratch(named: "status-\(seed)")
        for _ in 0..<60 { try scratch.write(Self.randomPath(&random), "\(random.next())\n") }
        try scratch.write(".gitignore", "*.log\nGenerated/\n")
        try scratch.commitAsNewRepository()
        // A submodule, at a name that sorts next to others, whose checkout moves and gets edits below.
        let library = try Scratch(named: "library")
        try library.write("Sources/Library.swift", "// 1\n")
        try library.commitAsNewRepository()
        try scratch.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", library.root.path, "a.c")
        try scratch.commitAll("submodule")
        let repository = try GitRepository(containing: scratch.root)
        for round in 0..<3 {
            for _ in 0..<Int(random.next() % 8 + 2) { try? Self.change(scratch, &random) }
            let read = try repository.changedFiles(under: "")
            let git = try Self.gitStatus(scratch)
            #expect(read == git, "seed \(seed), round \(round): libgit2 \(read) against git \(git)")
        }
    }

    private static func randomPath(_ random: inout SplitMix64) -> String {
        let depth = Int(random.next() % 4) + 1
        return (0..<depth).map { _ in names[Int(random.next() % UInt64(names.count))] }.joined(separator: "/") + "/f\(random.next() % 5).txt"
    }

    /// One change of the kinds a working tree sees: edits, deletions, new files and folders (ignored ones too),
    /// staged changes, a file that becomes a folder or a link, a folder that becomes a file, a nested repository, a
    /// submodule edited or moved.
    private static func change(_ scratch: Scratch, _ random: inout SplitMix64) throws {
        let tracked = try scratch.git("ls-files").split(separator: "\n").map(String.init).filter { ![".gitignore", ".gitmodules", "a.c"].contains($0) }
        guard let file = tracked.isEmpty ? nil : tracked[Int(random.next() % UInt64(tracked.count))] else { return }
        let url = scratch.root.appendingPathComponent(file)
        let manager = FileManager.default
        switch random.next() % 13 {
        case 0: try scratch.write(file, "edited \(random.next())\n")
        case 1: try? manager.removeItem(at: url)
        case 2: try scratch.write(randomPath(&random), "new\n")
        case 3: try scratch.write((file as NSString).deletingLastPathComponent + "/new.log", "ignored\n")
        case 4: try scratch.write("Generated/" + randomPath(&random), "ignored folder\n")
        case 5:
            try scratch.write(file, "staged \(random.next())\n")
            try scratch.git("add", "--", file)
        case 6:
            try? manager.removeItem(at: url)
            try scratch.write(file + "/inside.txt", "a file became a folder\n")
        case 7:
            let folder = url.deletingLastPathComponent()
            guard folder.path != scratch.root.path else { return }
            try? manager.removeItem(at: folder)
            try Data("a folder became a file\n".utf8).write(to: folder)
        case 8:
            try? manager.removeItem(at: url)
            try manager.createSymbolicLink(atPath: url.path, withDestinationPath: "../elsewhere")
        case 9:
            let nested = (file as NSString).deletingLastPathComponent + "/nested\(random.next() % 3)"
            try scratch.write(nested + "/inner.txt", "nested\n")
            try scratch.run("/usr/bin/git", ["-C", nested, "init", "-q"])
        case 10: try scratch.write("a.c/Sources/Library.swift", "// edited \(random.next())\n")
        case 11:
            try scratch.write("a.c/Sources/Library.swift", "// committed \(random.next())\n")
            try scratch.run("/usr/bin/git", ["-C", "a.c", "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-qam", "moved"])
        default:
            try scratch.git("rm", "-q", "--cached", "--", file)
        }
    }

    /// git's own list: every path with a change, untracked files one by one, no renames; a path both deleted from the
    /// index and untracked is one path.
    private static func gitStatus(_ scratch: Scratch) throws -> [String] {
        let output = try scratch.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
        return Set(output.split(separator: "\0").map { String($0.dropFirst(3)) }).sorted()
    }
}
