import ArgumentParser
import ComponentKit
import Foundation

struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev", abstract: "Developer tools: synthetic workspaces for benchmarks.",
        subcommands: [GenerateCommand.self, ReadFilesCommand.self, MaterializeCommand.self, RouteShapeCommand.self])

    struct ReadFilesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read-files", abstract: "Read every manifest and source check-layers reads, without lexing: the benchmark's anchor.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let analysis = try WorkspaceAnalysis.analyze(try global.workspace(), scanImports: false)
            print("read \(analysis.fileCount) Swift files of \(analysis.packages.count) components")
        }
    }

    struct MaterializeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "materialize", abstract: "Write a folder of a tagged commit from git objects: what pin does, alone, for benchmarks.")

        @Argument(help: "The tag.") var tag: String
        @Argument(help: "The folder's path in the repository.") var path: String
        @Argument(help: "Where to write it (must not exist).") var destination: String
        @Flag(help: "Print the microseconds the materialization took (without process start-up) to standard error.") var timing = false

        func run() throws {
            let repository = try GitRepository(containing: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            guard let resolved = try repository.resolveTag(tag), let tree = try repository.tree(of: resolved.commit, path: path) else {
                throw ToolError("No tag '\(tag)' with a folder '\(path)'.", status: .environment)
            }
            let start = ContinuousClock.now
            try repository.materialize(tree: tree, into: URL(fileURLWithPath: destination))
            let elapsed = ContinuousClock.now - start
            if timing {
                let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
                FileHandle.standardError.write(Data("\(microseconds)\n".utf8))
            }
        }
    }

    struct GenerateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-workspace", abstract: "Write a synthetic layered workspace with realistic imports.")

        @Argument(help: "The folder to create.") var folder: String
        @Option(help: "How many components.") var components = 500
        @Option(help: "How many Swift files in all.") var files = 20_000
        @Option(help: "The random seed, for a repeatable workspace.") var seed: UInt64 = 1

        func run() throws {
            let summary = try WorkspaceGenerator(components: components, files: files, seed: seed).write(to: URL(fileURLWithPath: folder))
            print(summary)
        }
    }
}

extension DevCommand {
    struct RouteShapeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route-shape",
            abstract: "Print the shape the route-collision rule gives each pattern, one a line (for cross-checks with the router).")

        @Argument(help: "Route patterns.") var patterns: [String]
        @Option(help: "Print instead, for each pattern, whether some URL matches both it and this pattern (true or false).")
        var overlapsWith: String?

        func run() throws {
            if let overlapsWith {
                print(patterns.map { String(RouteShape.overlaps($0, overlapsWith)) }.joined(separator: "\n"))
            } else {
                print(patterns.map(RouteShape.of).joined(separator: "\n"))
            }
        }
    }
}
