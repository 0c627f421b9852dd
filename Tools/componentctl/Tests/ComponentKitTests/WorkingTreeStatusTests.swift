import Foundation
import Testing
import TestSupport

@testable import ComponentKit

/// Keys and `affected --uncommitted` rest on the list of changed paths the status gives (componentctl's own scan, or
/// libgit2's where the scan declines): it must be git's own, whatever the working tree holds.
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
            for _ in 0..<Int(random.next() % 8 + 2) { try? Self.change(scratch, &random, submodule: true) }
            let read = try repository.changedFiles(under: "")
            let git = try Self.gitStatus(scratch)
            #expect(read == git, "seed \(seed), round \(round): libgit2 \(read) against git \(git)")
            #expect(WorkingTreeScan.read(repository) == nil, "the scan leaves submodules to libgit2")
        }
    }

    /// The same changes without a submodule: the scan answers wherever nothing is staged, with git's own list.
    @Test(arguments: 0..<24)
    func theScanListsWhatGitStatusListsOrDeclinesWhenSomethingIsStaged(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) + 1000)
        let scratch = try Scratch(named: "scan-\(seed)")
        for _ in 0..<60 { try scratch.write(Self.randomPath(&random), "\(random.next())\n") }
        try scratch.write(".gitignore", "*.log\nGenerated/\n")
        try scratch.commitAsNewRepository()
        if seed % 3 == 1 { try scratch.git("update-index", "--index-version", "4") }
        if seed % 3 == 2 { try scratch.git("config", "core.trustctime", "false") }
        if seed % 4 == 3 {
            // Attributes that filter: a file whose stat data disagrees is then hashed by libgit2, through them.
            try scratch.write(".gitattributes", "*.txt text eol=lf\n")
            try scratch.commitAll("attributes")
        }
        let repository = try GitRepository(containing: scratch.root)
        var answered = 0
        for round in 0..<6 {
            for _ in 0..<Int(random.next() % 6 + 1) { try? Self.change(scratch, &random, submodule: false) }
            let staged = (try? scratch.git("diff", "--cached", "--quiet")) == nil
            let git = try Self.gitStatus(scratch)
            if let scanned = WorkingTreeScan.read(repository) {
                answered += 1
                #expect(!staged, "seed \(seed), round \(round): the scan answered with changes staged")
                #expect(scanned.changed == git, "seed \(seed), round \(round): the scan \(scanned.changed) against git \(git)")
                #expect(try repository.changedFiles(under: "") == git)
            } else {
                // Declined: something is staged, or the index no longer proves that nothing is (its cache tree was
                // invalidated by a change since undone).
                let head = try scratch.git("rev-parse", "HEAD^{tree}").trimmingCharacters(in: .whitespacesAndNewlines)
                let cached = IndexFile.read(at: scratch.root.appendingPathComponent(".git/index"))?.rootTree.map {
                    $0.map { String(format: "%02x", $0) }.joined()
                }
                #expect(staged || cached != head, "seed \(seed), round \(round): the scan declined with nothing staged")
            }
            // Committing every change (nested repositories taken away first) makes the index HEAD's again: the scan
            // answers, and finds what git finds.
            if staged || random.next() % 3 == 0 {
                try scratch.git("clean", "-ffdq")
                try scratch.git("add", "-A")
                try scratch.git("commit", "-qm", "round \(round)", "--allow-empty")
                #expect(WorkingTreeScan.read(repository)?.changed == (try Self.gitStatus(scratch)), "seed \(seed), round \(round), committed")
            }
        }
        #expect(answered > 0, "seed \(seed): the scan never answered")
    }

    /// A .gitattributes new in a tracked folder may filter the files the scan hashes as their bytes are: it leaves them
    /// to libgit2, which reads it.
    @Test func aNewAttributesFileLeavesTheStatusToLibgit2() throws {
        let scratch = try Scratch(named: "attributes")
        try scratch.write("a/one.txt", "one\n")
        try scratch.commitAsNewRepository()
        let repository = try GitRepository(containing: scratch.root)
        #expect(WorkingTreeScan.read(repository)?.changed == [])
        try scratch.write("a/.gitattributes", "*.txt text eol=lf\n")
        #expect(WorkingTreeScan.read(repository) == nil)
        #expect(try repository.changedFiles(under: "") == ["a/.gitattributes"])
    }

    /// Names are bytes to git and to the file system: two spellings of `é` are two files, a name that is no UTF-8 is
    /// a file like any other, and a pipe is no file git lists.
    @Test func namesAreComparedAsBytesAndPipesAreNoFiles() throws {
        let scratch = try Scratch(named: "names")
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        try scratch.write("\(composed).txt", "x\n")
        try scratch.write("d/\(composed)", "y\n")
        try scratch.write("\(composed)/f", "f\n")
        try scratch.write("\(decomposed)/g", "g\n")
        try Self.create(scratch, [UInt8]("bad".utf8) + [0xff] + [UInt8]("/f.txt".utf8), "f\n")
        try Self.create(scratch, [UInt8]("x".utf8) + [0xfe] + [UInt8](".txt".utf8), "x\n")
        try scratch.commitAsNewRepository()
        let repository = try GitRepository(containing: scratch.root)
        #expect(WorkingTreeScan.read(repository)?.changed == [])
        // A tracked file that is no UTF-8, touched: its content decides, and it is the same.
        var times = [timespec(tv_sec: 978_307_200, tv_nsec: 0), timespec(tv_sec: 978_307_200, tv_nsec: 0)]
        let touched = (Array(scratch.root.path.utf8) + [UInt8(ascii: "/"), UInt8(ascii: "x"), 0xfe] + Array(".txt".utf8)).map { CChar(bitPattern: $0) } + [0]
        #expect(utimensat(AT_FDCWD, touched, &times, 0) == 0)
        try scratch.write("\(decomposed).txt", "z\n")
        try scratch.write("d/\(decomposed)", "z\n")
        #expect(mkfifo(scratch.root.appendingPathComponent("d/pipe").path, 0o644) == 0)
        let git = try Self.gitStatus(scratch)
        #expect(git.count == 2, "git lists the two new spellings: \(git)")
        #expect(WorkingTreeScan.read(repository)?.changed.map { Array($0.utf8) } == git.map { Array($0.utf8) })
    }

    /// Writes `text` at the path `bytes` below the scratch folder, its folders made on the way.
    private static func create(_ scratch: Scratch, _ bytes: [UInt8], _ text: String) throws {
        var path = Array(scratch.root.path.utf8) + [UInt8(ascii: "/")]
        for (index, part) in bytes.split(separator: UInt8(ascii: "/")).enumerated() {
            path += part
            let name = path.map { CChar(bitPattern: $0) } + [0]
            if index < bytes.split(separator: UInt8(ascii: "/")).count - 1 {
                _ = mkdir(name, 0o755)
                path.append(UInt8(ascii: "/"))
            } else {
                let descriptor = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                #expect(descriptor >= 0)
                _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
        }
    }

    private static func randomPath(_ random: inout SplitMix64) -> String {
        let depth = Int(random.next() % 4) + 1
        return (0..<depth).map { _ in names[Int(random.next() % UInt64(names.count))] }.joined(separator: "/") + "/f\(random.next() % 5).txt"
    }

    /// One change of the kinds a working tree sees: edits (of the same size too, just after git took the stat data, or
    /// with the time set back), a touch or a mode change alone, deletions, new files and folders (ignored ones too), staged changes, a
    /// file that becomes a folder or a link, a folder that becomes a file or a link, a nested repository, a submodule
    /// edited or moved.
    private static func change(_ scratch: Scratch, _ random: inout SplitMix64, submodule: Bool) throws {
        let tracked = try scratch.git("ls-files").split(separator: "\n").map(String.init).filter { ![".gitignore", ".gitmodules", "a.c"].contains($0) }
        guard let file = tracked.isEmpty ? nil : tracked[Int(random.next() % UInt64(tracked.count))] else { return }
        let url = scratch.root.appendingPathComponent(file)
        let manager = FileManager.default
        switch random.next() % (submodule ? 19 : 17) {
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
        case 10:
            // The same size, other bytes: only the content tells.
            let text = try String(contentsOf: url, encoding: .utf8)
            try scratch.write(file, String(text.reversed().dropFirst()) + "\n")
        case 11:
            try scratch.git("status", "--porcelain")
            try scratch.write(file, String(repeating: "x", count: (try? Data(contentsOf: url).count) ?? 1))
        case 12: try manager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
        case 13:
            let executable = ((try? manager.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int ?? 0) & 0o100 != 0
            try manager.setAttributes([.posixPermissions: executable ? 0o644 : 0o755], ofItemAtPath: url.path)
        case 14:
            let folder = url.deletingLastPathComponent()
            guard folder.path != scratch.root.path else { return }
            try? manager.removeItem(at: folder)
            try manager.createSymbolicLink(atPath: folder.path, withDestinationPath: ".")
        case 15: try scratch.git("rm", "-q", "--cached", "--", file)
        case 16:
            // Changed after git took its stat data, its time set back as it was (a time no earlier than the index's):
            // only the content tells, where the change time is not trusted.
            let time = Date(timeIntervalSinceNow: 3600)
            try scratch.write(file, "first \(random.next() % 10)\n")
            try manager.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
            try scratch.git("status", "--porcelain")
            try scratch.write(file, "again \(random.next() % 10)\n")
            try manager.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
        case 17: try scratch.write("a.c/Sources/Library.swift", "// edited \(random.next())\n")
        default:
            try scratch.write("a.c/Sources/Library.swift", "// committed \(random.next())\n")
            try scratch.run("/usr/bin/git", ["-C", "a.c", "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-qam", "moved"])
        }
    }

    /// git's own list: every path with a change, untracked files one by one, no renames; a path both deleted from the
    /// index and untracked is one path.
    private static func gitStatus(_ scratch: Scratch) throws -> [String] {
        let output = try scratch.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
        return Set(output.split(separator: "\0").map { String($0.dropFirst(3)) }).sorted()
    }
}
