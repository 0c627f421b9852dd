import Foundation

/// What `componentctl create` copies of a workspace: the files git tracks or would track, without the
/// sample's paths and the apps' folders; links copied as links, and the sample's passages taken out of
/// its Markdown files.
struct FrameworkCopy {
    /// The opening and closing lines of a Markdown file's passage about the sample, which a new workspace leaves out.
    static let sampleBlock = (begin: "<!-- sample -->", end: "<!-- /sample -->")

    let source: Workspace
    let context: VersionedWorkspace
    var repository: GitRepository { context.repository }
    /// Workspace-relative paths not copied.
    let left: Set<String>
    /// The submodules and nested repositories met, which are not copied.
    private(set) var repositories: [String] = []

    init(of source: Workspace) throws {
        self.source = source
        context = try VersionedWorkspace(source)
        left = Set(source.sample.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } + source.apps.map(\.folder) + ["components.lock", ".gitmodules"])
    }

    /// Copies into `destination`.
    mutating func copy(to destination: URL) throws {
        let submodules = Set(try repository.indexLinksAndSubmodules().submodules.keys)
        try copy("", to: destination, submodules: submodules, ignoredAbove: false)
    }

    private mutating func copy(_ relative: String, to destination: URL, submodules: Set<String>, ignoredAbove: Bool) throws {
        let manager = FileManager.default
        let from = relative.isEmpty ? source.root : source.root.appendingPathComponent(relative)
        for (name, kind) in FileStatus.entries(inFolderAt: from.path).sorted(by: { $0.name < $1.name }) where name != ".git" {
            let path = relative.isEmpty ? name : relative + "/" + name
            let inRepository = context.repositoryPath(path)
            guard !left.contains(path) else { continue }
            let url = from.appendingPathComponent(name)
            switch kind {
            case .folder:
                // A repository of its own (a submodule, a clone inside) is no part of the copy: git keeps it apart too.
                if submodules.contains(inRepository) || FileStatus.exists(url.appendingPathComponent(".git")) {
                    repositories.append(path)
                    continue
                }
                // An ignored folder is skipped unless git tracks files in it (added with --force).
                let ignored = try ignoredAbove || repository.isIgnored(inRepository + "/")
                if ignored, !(try repository.indexHasFiles(under: inRepository)) { continue }
                try copy(path, to: destination, submodules: submodules, ignoredAbove: ignored)
            case .file, .link:
                let ignored = try ignoredAbove || repository.isIgnored(inRepository)
                if ignored, !(try repository.isTracked(inRepository)) { continue }
                let target = destination.appendingPathComponent(path)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.copyItem(at: url, to: target)
                if kind == .file, [".md", ".markdown"].contains(where: path.lowercased().hasSuffix) { try Self.dropSampleBlocks(in: target, shown: path) }
            case .other:
                // A pipe, socket or device: git cannot track one, and reading it could block.
                continue
            }
        }
    }

    /// Takes the sample's passages out of the Markdown file at `url` (`shown` in messages), their marker
    /// lines with them; a passage left open is refused, since it would take the rest of the file.
    static func dropSampleBlocks(in url: URL, shown: String) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(sampleBlock.begin) || text.contains(sampleBlock.end) else { return }
        var opened: Int?
        var kept: [String] = []
        // By byte: "\r\n" is one Character, so a split by Character would not see a Windows file's lines.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        for (number, line) in lines.enumerated() {
            let marker = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if marker == sampleBlock.begin || marker == sampleBlock.end {
                guard (marker == sampleBlock.begin) == (opened == nil) else {
                    throw ToolError(
                        "\(shown):\(number + 1): '\(marker)' \(opened == nil ? "closes no passage" : "opens a passage inside another") "
                            + "about the sample: pair each '\(sampleBlock.begin)' with a '\(sampleBlock.end)' below it. Nothing was created.", status: .usage)
                }
                opened = opened == nil ? number + 1 : nil
            } else if opened == nil {
                kept.append(line)
            }
        }
        if let opened {
            throw ToolError(
                "\(shown):\(opened): '\(sampleBlock.begin)' is never closed, so the rest of the file would go: add '\(sampleBlock.end)' "
                    + "where the sample's passage ends. Nothing was created.", status: .usage)
        }
        try Data(kept.joined(separator: "\n").utf8).write(to: url)
    }
}
