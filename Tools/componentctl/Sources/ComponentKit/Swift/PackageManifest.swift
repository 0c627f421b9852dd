public import Foundation

/// What componentctl needs of a `Package.swift`: read statically, or as SwiftPM evaluated it.
public struct PackageManifest: Sendable {
    /// The `name:` of `Package(...)`, if written as a literal.
    public var name: String?
    /// The package dependencies, in order.
    public var dependencies: [PackageDependency]
    /// The products.
    public var products: [ProductDeclaration]
    /// The targets.
    public var targets: [TargetDeclaration]
    /// Where the static reader met what it cannot evaluate with certainty (a helper function, an `#if`, a statement that
    /// changes `package`, a value it does not model); empty when it read everything, or when SwiftPM evaluated the manifest.
    public var unresolved: [ManifestLocation] = []
    /// What the manifest's value depends on besides its text and the toolchain.
    public var surroundings = ManifestSurroundings.environment([])
    /// Whether the value is SwiftPM's own evaluation (`swift package dump-package`) rather than the static reader's.
    public var isEvaluatedBySwiftPM = false
    /// The `// swift-tools-version:` the manifest declares (`[5, 9, 0]`); `[0, 0, 0]` when it declares none.
    public var toolsVersion = [0, 0, 0]

    /// The target called `name`, if any.
    public func target(named name: String) -> TargetDeclaration? { targets.first { $0.name == name } }

    /// The tools version in the first line of `bytes` (`// swift-tools-version: 5.9`), as SwiftPM reads it.
    static func toolsVersion(in bytes: [UInt8]) -> [Int] {
        let firstLine = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        let marker = Array("swift-tools-version:".utf8)
        // A byte search: Foundation's `range(of:)` bridges every manifest's line to NSString.
        guard let start = firstLine.indices.first(where: { firstLine[$0...].starts(with: marker) }) else { return [0, 0, 0] }
        let word = String(decoding: firstLine[(start + marker.count)...], as: UTF8.self).drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
        return Array((word.split(separator: ".").compactMap { Int($0) } + [0, 0, 0]).prefix(3))
    }

    /// Whether the first line of `bytes` is a tools-version line SwiftPM accepts (`// swift-tools-version:5.9`, a space
    /// before the version from 5.4 on, at least 4.0, nothing after it but `;...`); SwiftPM explains any other.
    static func hasValidToolsVersionLine(_ bytes: [UInt8]) -> Bool {
        let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        let marker = "// swift-tools-version:"
        guard line.hasPrefix(marker) else { return false }
        let afterMarker = line.dropFirst(marker.count)
        let spaced = afterMarker.first == " "
        let word = afterMarker.drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
        let rest = afterMarker.drop { $0 == " " }.dropFirst(word.count)
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }), rest.isEmpty || rest.hasPrefix(";") else { return false }
        let version = toolsVersion(in: bytes)
        return !version.lexicographicallyPrecedes([4, 0]) && !(spaced && version.lexicographicallyPrecedes([5, 4]))
    }

    /// This manifest with each target's source folder found as SwiftPM finds it in the package folder `folder`: its `path:`,
    /// else `<predefined>/<name>`, else (tools 5.9 and later) the predefined folder itself when the target is the only one of
    /// its kind without a `path:`.
    public func locatingSources(in folder: URL) -> PackageManifest {
        var copy = self
        let base = folder.path + "/"
        for index in copy.targets.indices where copy.targets[index].path == nil {
            let target = copy.targets[index]
            let candidates =
                target.kind == .test
                ? ["Tests", "Sources", "Source", "src", "srcs"] : target.kind == .plugin ? ["Plugins"] : ["Sources", "Source", "src", "srcs"]
            let predefined = candidates.first { FileStatus.isFolder(atPath: base + $0) } ?? candidates[0]
            let own = predefined + "/" + target.name
            let sameKind = targets.filter { $0.path == nil && ($0.kind == .test) == (target.kind == .test) && ($0.kind == .plugin) == (target.kind == .plugin) }
            let wholeFolder =
                !FileStatus.isFolder(atPath: base + own) && sameKind.count == 1 && toolsVersion.lexicographicallyPrecedes([5, 9, 0]) == false
            copy.targets[index].locatedFolder = wholeFolder ? predefined : own
        }
        return copy
    }
}

/// A position in a manifest.
public struct ManifestLocation: Sendable, Hashable, Codable {
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A `.package(path:)` or `.package(url:)` dependency.
public struct PackageDependency: Sendable, Hashable {
    /// The `name:` of the legacy `.package(name:url:...)` and `.package(name:path:)`, which target dependencies use as
    /// `package:`.
    public var name: String? = nil
    /// The local path, as written.
    public var path: String?
    /// The remote URL, as written.
    public var url: String?
    /// Where the path or URL literal stands.
    public var location: ManifestLocation
    /// A remote package's version requirement (`exact: 1.16.2`, `from: 1.0.0`, `upToNextMinor: 1.2.0`,
    /// `range: 1.0.0..<1.5.0`, `revision: abc`, `branch: main`), however the manifest spells it; nil when unknown.
    public var requirement: String? = nil

    /// The requirement `lower..<upper` in the words of ``requirement``: `from:` or `upToNextMinor:` where the range is one.
    static func requirement(lower: String, upper: String) -> String {
        if let from = SemanticVersion(lower), let to = SemanticVersion(upper), to.prerelease.isEmpty, to.build == nil, to.patch == 0 {
            if (to.major, to.minor) == (from.major + 1, 0) { return "from: \(lower)" }
            if (to.major, to.minor) == (from.major, from.minor + 1) { return "upToNextMinor: \(lower)" }
        }
        return "range: \(lower)..<\(upper)"
    }

    /// Whether the requirement names one version of the package's code (an exact version or a revision).
    public var isExact: Bool { requirement.map { $0.hasPrefix("exact: ") || $0.hasPrefix("revision: ") } ?? false }

    /// SwiftPM's identity for it: the last path component, lower-cased, without `.git`.
    public var identity: String { Self.identity(ofURL: path ?? url ?? "") }

    /// The identity SwiftPM gives the package at `text` (a URL or path): its last component, lower case, without `.git`.
    static func identity(ofURL text: String) -> String {
        let last = text.split(separator: "/").last.map(String.init) ?? text
        return (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
    }
}

/// A `.library(...)` or `.executable(...)` product.
public struct ProductDeclaration: Sendable, Hashable {
    /// The product's name.
    public var name: String
    /// The targets it is made of.
    public var targets: [String]
    /// Whether it is a `.library(..., type: .dynamic, ...)`: a shared library.
    public var isDynamicLibrary = false
    /// Whether it is an `.executable(...)`.
    public var isExecutable = false
    /// Whether it is a `.plugin(...)`: a package plugin, no module to import.
    public var isPlugin = false
}

/// The module name the compiler gives a target: its name with every character that cannot be in a C99 identifier made
/// `_`, and a `_` before a leading digit (`SyncUI-macOS` -> `SyncUI_macOS`), as SwiftPM's `c99name` does.
public func c99ModuleName(_ name: String) -> String {
    // Nearly every name is one already: checking its bytes costs far less than Unicode properties, once per import.
    let isIdentifier = name.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
    if isIdentifier, let first = name.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) { return name }
    var result = String(
        name.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") ? Character($0) : "_" })
    if let first = result.first, first.isNumber { result = "_" + result }
    return result
}

/// A target declaration.
public struct TargetDeclaration: Sendable, Hashable {
    /// Which kind of target.
    public enum Kind: String, Sendable, Hashable, Codable {
        case regular = "target", executable = "executableTarget", test = "testTarget"
        case system = "systemLibrary", binary = "binaryTarget", macro, plugin
    }

    /// The target's (and its module's) name.
    public var name: String
    /// Its kind.
    public var kind: Kind
    /// Its `path:`, if written.
    public var path: String?
    /// What it depends on.
    public var dependencies: [TargetDependency]
    /// Where its declaration starts.
    public var location: ManifestLocation
    /// Its `sources:`, relative to its folder, when it names them.
    public var sources: [String]? = nil
    /// Its `exclude:`, relative to its folder.
    public var exclude: [String] = []
    /// The plugins it uses (`plugins: [.plugin(name:package:)]`).
    public var plugins: [TargetDependency] = []
    /// Its source folder as SwiftPM finds it on disk (``PackageManifest/locatingSources(in:)``).
    public var locatedFolder: String? = nil

    /// The folder its sources live in, relative to the package.
    public var sourceFolder: String {
        path ?? locatedFolder ?? (kind == .test ? "Tests/\(name)" : kind == .plugin ? "Plugins/\(name)" : "Sources/\(name)")
    }

    /// The module name the compiler gives it.
    public var moduleName: String { c99ModuleName(name) }

    /// Whether the target makes a module another target imports (a macro's module is the compiler's, reached through
    /// `#externalMacro`).
    public var isImportable: Bool { kind != .test && kind != .plugin && kind != .binary && kind != .macro }
}

/// One entry of a target's `dependencies:`.
public struct TargetDependency: Sendable, Hashable {
    /// How it was written.
    public enum Reference: Sendable, Hashable {
        /// `"Name"` or `.byName(name: "Name")`: a target of this package or a product named like its package.
        case byName(String)
        /// `.target(name: "Name")`.
        case target(String)
        /// `.product(name: "Name", package: "Package")`.
        case product(String, package: String)
    }

    /// How it was written.
    public var reference: Reference
    /// Where it stands.
    public var location: ManifestLocation

    /// The name of the module or product referred to.
    public var name: String {
        switch reference {
        case .byName(let name), .target(let name), .product(let name, _): name
        }
    }
}

/// A problem reading a manifest.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Where, when known.
    public var location: ManifestLocation?
    /// What to do, when it is not to correct the manifest.
    public var fix: String?
    public var description: String { message }

    /// An error saying `message`, at `location` when known, with `fix` when it is not to correct the manifest.
    public init(message: String, location: ManifestLocation? = nil, fix: String? = nil) {
        self.message = message
        self.location = location
        self.fix = fix
    }
}
