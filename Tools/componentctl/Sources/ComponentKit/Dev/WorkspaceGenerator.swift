public import Foundation

/// Writes a synthetic layered workspace, clean under check-layers, for benchmarks: foundation,
/// core (with allowed pairs), interfaces and business components whose files import what their
/// targets declare, among comments and strings that mention imports to keep the lexer honest.
public struct WorkspaceGenerator {
    /// How many components.
    public var components: Int
    /// How many Swift files in all.
    public var files: Int
    /// The random seed.
    public var seed: UInt64

    /// Creates a generator.
    public init(components: Int, files: Int, seed: UInt64) {
        self.components = components
        self.files = files
        self.seed = seed
    }

    private struct Spec {
        var name: String
        var folder: String
        var layer: String
        var isInterface: Bool
        var interface: String?
        var dependencies: [Int] = []
        var path: String { "Packages/\(folder)/\(name)" }
    }

    /// Writes the workspace into `root` (which must not exist yet) and describes it.
    public func write(to root: URL) throws -> String {
        guard components >= 8, files >= components else {
            throw ToolError("generate at least 8 components and one file per component", status: .usage)
        }
        guard !FileManager.default.fileExists(atPath: root.path) else {
            throw ToolError("'\(root.path)' exists already; name a new folder", status: .usage)
        }
        var random = SplitMix64(seed: seed)
        let specs = plan(&random)
        let allowed = specs.filter { $0.layer == "core" }.flatMap { spec in
            spec.dependencies.filter { specs[$0].layer == "core" }.map { "    - core/\(kebabCase(spec.name)) -> core/\(kebabCase(specs[$0].name))\n" }
        }
        var yaml = "workspace:\n  name: Synthetic\n  scheme: synth\nlayers: [business, core, foundation]\n"
        // An empty `allow:` would be a null, not a list.
        yaml += allowed.isEmpty ? "" : "rules:\n  allow:\n" + allowed.joined()
        yaml += "components:\n"
        for spec in specs {
            yaml += "  \(kebabCase(spec.name)):\n    path: \(spec.path)\n    layer: \(spec.layer)\n"
            if spec.isInterface { yaml += "    kind: interface\n" }
            if let interface = spec.interface { yaml += "    interface: \(kebabCase(interface))\n" }
            yaml += "    version: 1.0.0\n"
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: root.appendingPathComponent("components.yaml"))
        var written = 0
        for (index, spec) in specs.enumerated() {
            let count = files / specs.count + (index < files % specs.count ? 1 : 0)
            try writePackage(spec, specs: specs, fileCount: count, root: root, random: &random)
            written += count
        }
        return "Wrote \(specs.count) components and \(written) Swift files to \(root.path)"
    }

    private func plan(_ random: inout SplitMix64) -> [Spec] {
        let foundationCount = max(2, components / 12)
        let coreCount = max(2, components / 5)
        let featureCount = max(2, (components - foundationCount - coreCount) / 2)
        var specs: [Spec] = []
        for index in 0..<foundationCount {
            specs.append(Spec(name: String(format: "Base%03d", index), folder: "Foundation", layer: "foundation", isInterface: false))
        }
        let coreStart = specs.count
        for index in 0..<coreCount {
            var spec = Spec(name: String(format: "Service%03d", index), folder: "Core", layer: "core", isInterface: false)
            spec.dependencies = pick(1...3, from: 0..<foundationCount, &random)
            if index > 0, random.next() % 4 == 0 { spec.dependencies.append(coreStart + Int(random.next() % UInt64(index))) }
            specs.append(spec)
        }
        let interfaceStart = specs.count
        for index in 0..<featureCount {
            var spec = Spec(name: String(format: "Feature%03dInterface", index), folder: "Interfaces", layer: "business", isInterface: true)
            spec.dependencies = pick(1...2, from: 0..<foundationCount, &random)
            if index > 0 { spec.dependencies += pick(0...1, from: interfaceStart..<(interfaceStart + index), &random) }
            specs.append(spec)
        }
        let businessCount = components - specs.count
        for index in 0..<businessCount {
            let own = interfaceStart + index % featureCount
            var spec = Spec(
                name: String(format: "Feature%03d", index), folder: "Business", layer: "business", isInterface: false,
                interface: index < featureCount ? specs[own].name : nil)
            spec.dependencies =
                [own] + pick(1...3, from: interfaceStart..<(interfaceStart + featureCount), &random)
                + pick(1...3, from: coreStart..<(coreStart + coreCount), &random) + pick(1...2, from: 0..<foundationCount, &random)
            spec.dependencies = Array(Set(spec.dependencies)).sorted()
            specs.append(spec)
        }
        return specs
    }

    private func pick(_ count: ClosedRange<Int>, from range: Range<Int>, _ random: inout SplitMix64) -> [Int] {
        guard !range.isEmpty else { return [] }
        let wanted = count.lowerBound + Int(random.next() % UInt64(count.count))
        return Array(Set((0..<wanted).map { _ in range.lowerBound + Int(random.next() % UInt64(range.count)) })).sorted()
    }

    private func writePackage(_ spec: Spec, specs: [Spec], fileCount: Int, root: URL, random: inout SplitMix64) throws {
        let folder = root.appendingPathComponent(spec.path)
        let sources = folder.appendingPathComponent("Sources/\(spec.name)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let dependencies = spec.dependencies.map { specs[$0] }
        let packages = dependencies.map { "        .package(path: \"../../\($0.folder)/\($0.name)\"),\n" }.joined()
        let products = dependencies.map { ".product(name: \"\($0.name)\", package: \"\($0.name)\")" }.joined(separator: ", ")
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "\(spec.name)",
                products: [.library(name: "\(spec.name)", targets: ["\(spec.name)"])],
                dependencies: [
            \(packages)    ],
                targets: [
                    .target(name: "\(spec.name)", dependencies: [\(products)]),
                ]
            )

            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        for index in 0..<fileCount {
            // Every dependency is imported by at least one file, so the workspace has no redundant dependency.
            var imports = dependencies.enumerated().filter { $0.offset % max(1, fileCount) == index % max(1, fileCount) || random.next() % 3 == 0 }.map(
                \.element.name)
            if index == 0 { imports = dependencies.map(\.name) }
            let text = sourceFile(spec.name, index: index, imports: imports, behaviour: !spec.isInterface)
            try Data(text.utf8).write(to: sources.appendingPathComponent("File\(index).swift"))
        }
    }

    /// A source file; `behaviour` adds methods with bodies, which an interface may not hold.
    private func sourceFile(_ module: String, index: Int, imports: [String], behaviour: Bool) -> String {
        let importLines = (["Foundation"] + imports).map { "import \($0)" }.joined(separator: "\n")
        let methods = behaviour ? Self.methods : ""
        return """
            // \(module)/File\(index).swift: generated for benchmarks.
            // import NotADependency (a comment, not an import)
            \(importLines)

            /// A generated type. Its doc mentions `import Something` to keep the lexer honest.
            public struct \(module)Type\(index): Sendable, Hashable {
                /* A block comment /* nested */ with import Hidden inside. */
                public var identifier: Int
                public var title: String
                public var tags: [String]

                public init(identifier: Int, title: String, tags: [String] = []) {
                    self.identifier = identifier
                    self.title = title
                    self.tags = tags
                }
            \(methods)
            }

            #if DEBUG
            extension \(module)Type\(index): CustomDebugStringConvertible {
                public var debugDescription: String { "\\(Self.self)(\\(identifier))" }
            }
            #endif

            """
    }

    /// Two methods with bodies, holding text that looks like imports to keep the lexer honest.
    private static let methods = """

            public func describe() -> String {
                let header = "import \\(title) is not an import"
                let body = \"\"\"
                    \\(identifier): \\(tags.joined(separator: ", "))
                    import Hidden
                    \"\"\"
                let raw = #"raw "import" text \\#(identifier)"#
                return [header, body, raw].joined(separator: "\\n")
            }

            public func score(_ other: Self) -> Int {
                var total = 0
                for (left, right) in zip(tags, other.tags) where left == right {
                    total += left.count * 3 + right.count
                }
                if identifier % 2 == 0 { total += 1 } else { total -= 1 }
                return total + title.count - other.title.count
            }
        """
}

/// A small, fast, seedable random number generator (SplitMix64), for repeatable output.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
