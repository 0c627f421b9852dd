import Foundation
import PluginFeed

/// What SwiftPM planned for one package in the shared scratch folder, as its `description.json` says.
struct PlanDescription: Codable, Equatable {
    /// The package's folder, relative to the workspace root.
    var package = ""
    /// The folder of the configuration's build, a real path (`.../x86_64-unknown-linux-gnu/debug`).
    var buildFolder: String
    /// The modules a build of the package makes.
    var modules: Set<String>
    /// The modules a test of the package makes: its test targets' too.
    var testModules: Set<String>
    /// Every module of the package's graph, with all the modules it needs (SwiftPM's `targetDependencyMap`).
    var dependencies: [String: Set<String>]

    /// The plan of a build, or of a test when `includingTests`.
    func plan(includingTests: Bool) -> SharedScratch.Plan {
        SharedScratch.Plan(buildFolder: URL(fileURLWithPath: buildFolder), modules: includingTests ? testModules : modules)
    }
}

/// The plans SwiftPM wrote for the packages built in the shared scratch folder, kept to predict a package's next plan
/// without starting SwiftPM once more to ask for it (0.4 s to 3 s a package).
///
/// A prediction is only a guess: each build writes its own plan, and a build that saw other modules than its plan
/// holds is done again with that plan. So a wrong guess costs time, never a result.
struct PlanMemory {
    /// Where the plans are kept: one file a package, named after a digest of its path (a path may be longer than a
    /// file name may).
    let folder: URL
    private(set) var plans: [String: PlanDescription] = [:]
    /// Every module a kept plan has, with all the modules it needs.
    private var known: [String: Set<String>] = [:]

    /// The plans kept in `scratch` for its configuration and the extra arguments of its builds (`flags`: another
    /// target triple builds in another folder).
    init(scratch: SharedScratch, flags: [String]) {
        let variant = flags.isEmpty ? "" : "-" + Digest.sha256(Data(flags.joined(separator: "\n").utf8)).prefix(16)
        folder = scratch.folder.appendingPathComponent("componentctl-plans/\(scratch.configuration)\(variant)")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                let plan = try? JSONDecoder().decode(PlanDescription.self, from: data), name == Self.fileName(of: plan.package)
            else { continue }
            plans[plan.package] = plan
            known.merge(plan.dependencies) { $0.union($1) }
        }
    }

    /// Keeps `plan` as the last one of its package. A plan is only a guess: one that cannot be written costs time.
    mutating func remember(_ plan: PlanDescription) {
        guard plans[plan.package] != plan else { return }
        plans[plan.package] = plan
        known.merge(plan.dependencies) { $0.union($1) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            let data = try? JSONEncoder().encode(plan)
        else { return }
        try? AtomicFile.write(data, to: folder.appendingPathComponent(Self.fileName(of: plan.package)))
    }

    private static func fileName(of package: String) -> String {
        String(Digest.sha256(Data(package.utf8)).prefix(32)) + ".json"
    }

    /// The plan the package at `path` most likely gets: its last one, else one worked out from its manifest and the
    /// plans of what it depends on; nil when neither can be had (SwiftPM is asked then).
    func predict(_ path: String, in root: URL, includingTests: Bool, loader: ManifestLoader) -> SharedScratch.Plan? {
        if let last = plans[path] { return last.plan(includingTests: includingTests) }
        let folder = root.appendingPathComponent(path)
        guard let buildFolder = plans.values.first?.buildFolder, let manifest = try? loader.load(packageIn: folder),
            let modules = PlanPrediction(manifest: manifest, folder: folder, known: known, loader: loader).modules(includingTests: includingTests)
        else { return nil }
        return SharedScratch.Plan(buildFolder: URL(fileURLWithPath: buildFolder), modules: modules)
    }

    /// The identities of the packages the package at `folder` requires by URL: the pins of its `Package.resolved`,
    /// and what its manifest and those of its dependencies at a path name; nil when a manifest cannot be read.
    static func remotePackages(of folder: URL, loader: ManifestLoader) -> Set<String>? {
        var remote = Set<String>(), visited = Set<String>(), pending = [folder.standardizedFileURL]
        if let data = FileManager.default.contents(atPath: folder.appendingPathComponent("Package.resolved").path),
            let pins = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["pins"] as? [[String: Any]]
        {
            remote.formUnion(pins.compactMap { $0["identity"] as? String })
        }
        while let package = pending.popLast() {
            guard visited.insert(package.path).inserted else { continue }
            guard let manifest = try? loader.load(packageIn: package) else { return nil }
            for dependency in manifest.dependencies {
                if let path = dependency.path {
                    pending.append(package.appendingPathComponent(path).standardizedFileURL)
                } else {
                    remote.insert(dependency.identity)
                }
            }
        }
        return remote
    }
}

/// The modules a package's build makes, as far as its manifest and the kept plans tell: a module no kept plan has
/// (of a package no build here made yet) is left out, which is right while no such module is built; the check after
/// the build says whether it was. Nil where the manifest says something this does not follow (macros, plugins,
/// binaries, a target it does not declare).
private struct PlanPrediction {
    let manifest: PackageManifest
    let folder: URL
    /// The modules of the packages built before, with what each needs.
    let known: [String: Set<String>]
    let loader: ManifestLoader

    func modules(includingTests: Bool) -> Set<String>? {
        let own = Dictionary(manifest.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var pending = manifest.targets.filter { includingTests || $0.kind != .test }
        var visited = Set<String>(), modules = Set<String>()
        while let target = pending.popLast() {
            guard visited.insert(target.name).inserted else { continue }
            guard [.regular, .executable, .test, .system].contains(target.kind), target.plugins.isEmpty else { return nil }
            modules.insert(target.moduleName)
            for dependency in target.dependencies {
                // A name alone is a target of the package, else a product of a dependency.
                switch dependency.reference {
                case .target(let name):
                    guard let dependedOn = own[name] else { return nil }
                    pending.append(dependedOn)
                case .byName(let name):
                    if let dependedOn = own[name] {
                        pending.append(dependedOn)
                    } else {
                        modules.formUnion(productModules(name, package: nil))
                    }
                case .product(let name, let package):
                    modules.formUnion(productModules(name, package: package))
                }
            }
        }
        // SwiftPM's test product and the module it generates to list the tests.
        if includingTests, manifest.targets.contains(where: { $0.kind == .test }) {
            guard let name = manifest.name else { return nil }
            modules.formUnion(["\(name)PackageTests", "\(name)PackageDiscoveredTests"].map(c99ModuleName))
        }
        return modules
    }

    /// The modules product `name` brings: its targets (from the manifest of a package at a path, else the module
    /// named like the product, where a kept plan has one) and what each needs, where a kept plan says.
    private func productModules(_ name: String, package: String?) -> Set<String> {
        let candidates = manifest.dependencies.filter { dependency in
            package.map { dependency.identity == $0.lowercased() || dependency.name == $0 } ?? true
        }
        let declared = candidates.lazy.compactMap { dependency in
            dependency.path.flatMap { path in
                (try? loader.load(packageIn: folder.appendingPathComponent(path)))?.products.first { $0.name == name }?.targets
            }
        }.first
        let targets = declared?.map(c99ModuleName) ?? [c99ModuleName(name)].filter { known[$0] != nil }
        return targets.reduce(into: Set(targets)) { modules, target in modules.formUnion(known[target, default: []]) }
    }
}
