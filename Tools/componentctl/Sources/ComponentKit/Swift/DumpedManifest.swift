import Foundation

/// A manifest as `swift package dump-package` prints it, turned into a ``PackageManifest``.
enum DumpedManifest {
    /// The manifest in `root`, SwiftPM's evaluation of the manifest text `bytes` in the package folder `folder`; local
    /// paths come out relative to `folder`, places from the first literal in `bytes` that spells the name.
    static func manifest(from root: [String: Any], bytes: [UInt8], folder: String) -> PackageManifest {
        let places = Places(bytes)
        let dependencies = (root["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency($0, folder: folder, places: places) }
        let products = (root["products"] as? [[String: Any]] ?? []).compactMap(product)
        var targets: [TargetDeclaration] = []
        for object in root["targets"] as? [[String: Any]] ?? [] {
            guard let target = target(object, places: places) else { continue }
            targets.append(target)
        }
        var manifest = PackageManifest(name: root["name"] as? String, dependencies: dependencies, products: products, targets: targets)
        manifest.isEvaluatedBySwiftPM = true
        manifest.toolsVersion = PackageManifest.toolsVersion(in: bytes)
        return manifest
    }

    /// Where literals stand in the manifest's text, to point a finding at the line that declares a thing.
    struct Places {
        private var first: [String: ManifestLocation] = [:]
        private var all: [(text: String, location: ManifestLocation)] = []
        /// Where each target's `name:` literal stands (`.target(name: "X"`), by name.
        private var targetNames: [String: ManifestLocation] = [:]

        init(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { buffer in
                var lexer = SwiftLexer(buffer)
                var recent: [String] = []
                while let token = lexer.next() {
                    defer { recent = Array((recent + [lexer.text(token.range)]).suffix(4)) }
                    guard case .string(interpolated: false) = token.kind, let text = lexer.stringValue(token) else { continue }
                    let location = ManifestLocation(line: token.line, column: lexer.column(of: token))
                    all.append((text, location))
                    if first[text] == nil { first[text] = location }
                    // `.target(name: "X"`: the word before `(`, then `name`, `:`.
                    if recent.count == 4, recent[1] == "(", recent[2] == "name", recent[3] == ":", TargetDeclaration.Kind(rawValue: recent[0]) != nil,
                        targetNames[text] == nil
                    {
                        targetNames[text] = location
                    }
                }
            }
        }

        /// Where the target `name` is declared, else the first literal `name`.
        func target(_ name: String) -> ManifestLocation { targetNames[name] ?? of(name) }

        /// The first literal `text` after `start`, else the first anywhere, else the first that ends with `suffix`, else
        /// `start`, else the top.
        func of(_ text: String, after start: ManifestLocation? = nil, endingWith suffix: String? = nil) -> ManifestLocation {
            let later = start.map { start in all.filter { ($0.location.line, $0.location.column) >= (start.line, start.column) } } ?? all
            return later.first { $0.text == text }?.location ?? first[text]
                ?? suffix.flatMap { suffix in all.first { !suffix.isEmpty && $0.text.hasSuffix(suffix) }?.location } ?? start
                ?? ManifestLocation(line: 1, column: 1)
        }
    }

    private static func dependency(_ object: [String: Any], folder: String, places: Places) -> PackageDependency? {
        if let fields = (object["fileSystem"] as? [[String: Any]])?.first, let path = fields["path"] as? String {
            let relative = LexicalPath.relative(path, from: folder)
            let last = (path as NSString).lastPathComponent
            return PackageDependency(
                name: fields["nameForTargetDependencyResolutionOnly"] as? String, path: relative, url: nil,
                location: places.of(relative, endingWith: last))
        }
        if let fields = (object["sourceControl"] as? [[String: Any]])?.first {
            let location = fields["location"] as? [String: Any]
            let remote = ((location?["remote"] as? [Any])?.first as? [String: Any])?["urlString"] as? String
            let local = (location?["local"] as? [Any])?.first as? String
            guard let url = remote ?? local else { return nil }
            return PackageDependency(
                name: fields["nameForTargetDependencyResolutionOnly"] as? String, path: nil, url: url, location: places.of(url),
                requirement: requirement(fields["requirement"]))
        }
        if let fields = (object["registry"] as? [[String: Any]])?.first, let identity = fields["identity"] as? String {
            // A registry package has no URL: its identity (`scope.name`) stands in, and is what `identity` gives back.
            return PackageDependency(path: nil, url: identity, location: places.of(identity), requirement: requirement(fields["requirement"]))
        }
        return nil
    }

    /// SwiftPM's requirement in the words of ``PackageDependency/requirement``.
    private static func requirement(_ value: Any?) -> String? {
        guard let object = value as? [String: Any] else { return nil }
        if let range = (object["range"] as? [[String: Any]])?.first, let lower = range["lowerBound"] as? String,
            let upper = range["upperBound"] as? String
        {
            return PackageDependency.requirement(lower: lower, upper: upper)
        }
        for label in ["exact", "revision", "branch"] {
            if let text = (object[label] as? [Any])?.first as? String { return "\(label): \(text)" }
        }
        return nil
    }

    private static func product(_ object: [String: Any]) -> ProductDeclaration? {
        guard let name = object["name"] as? String else { return nil }
        let type = object["type"] as? [String: Any] ?? [:]
        let linkage = (type["library"] as? [Any])?.first as? String
        return ProductDeclaration(
            name: name, targets: object["targets"] as? [String] ?? [], isDynamicLibrary: linkage == "dynamic",
            isExecutable: type.keys.contains("executable"), isPlugin: type.keys.contains("plugin"))
    }

    private static let kinds: [String: TargetDeclaration.Kind] = [
        "regular": .regular, "executable": .executable, "test": .test, "system": .system, "binary": .binary, "macro": .macro,
        "plugin": .plugin,
    ]

    private static func target(_ object: [String: Any], places: Places) -> TargetDeclaration? {
        guard let name = object["name"] as? String, let typeName = object["type"] as? String, let kind = kinds[typeName] else { return nil }
        let location = places.target(name)
        let dependencies = (object["dependencies"] as? [[String: Any]] ?? []).compactMap { entry -> TargetDependency? in
            if let fields = entry["byName"] as? [Any], let name = fields.first as? String {
                return TargetDependency(reference: .byName(name), location: places.of(name, after: location))
            }
            if let fields = entry["target"] as? [Any], let name = fields.first as? String {
                return TargetDependency(reference: .target(name), location: places.of(name, after: location))
            }
            if let fields = entry["product"] as? [Any], let name = fields.first as? String {
                let package = fields.count > 1 ? fields[1] as? String : nil
                return TargetDependency(reference: .product(name, package: package ?? name), location: places.of(name, after: location))
            }
            return nil
        }
        var target = TargetDeclaration(name: name, kind: kind, path: object["path"] as? String, dependencies: dependencies, location: location)
        target.sources = object["sources"] as? [String]
        target.exclude = object["exclude"] as? [String] ?? []
        target.plugins = (object["pluginUsages"] as? [[String: Any]] ?? []).compactMap { usage in
            guard let fields = usage["plugin"] as? [Any], let name = fields.first as? String else { return nil }
            let package = fields.count > 1 ? fields[1] as? String : nil
            return TargetDependency(reference: package.map { .product(name, package: $0) } ?? .target(name), location: places.of(name, after: location))
        }
        return target
    }
}
