import Foundation

/// The scratch folder every standalone build shares, kept as strict as a folder of each package's own.
///
/// Sharing one folder lets a component reuse what another's build compiled, but SwiftPM hands the compiler the
/// whole `Modules/` folder, so a module another package built would satisfy an import this package never declared.
/// Three rules keep every result what the package's own folder would give, and the sharing real:
/// - **Each build sees only its plan.** Before a build, every module that SwiftPM does not plan for this package is
///   moved out of `Modules/`, and moved back after it.
/// - **A component's modules count only when its own build made them.** A dependent's build may compile them with
///   more modules in view. Their files are recorded after each passing build of their own package; files that
///   changed since are removed before that package builds again, so the compiler checks them anew.
/// - **A checkout outlives the packages that do not use it.** SwiftPM deletes the checkout of a package the current
///   package does not use and clones it again for the next one that does, with new files, so all of it would
///   compile again. Each checkout is kept as `componentctl-checkouts/<name>@<revision>`, which `checkouts/<name>`
///   links to.
struct SharedScratch {
    /// The folder, relative to the workspace root.
    static let path = ".build/componentctl-shared"

    /// What SwiftPM plans for one package.
    struct Plan {
        /// The folder the compiler searches for Swift modules.
        var modulesFolder: URL
        /// Every module the package's build may make, its dependencies' included.
        var modules: Set<String>
        /// The modules whose sources are the package's own.
        var ownModules: Set<String>
    }

    let root: URL
    let configuration: String

    var folder: URL { root.appendingPathComponent(Self.path) }
    private var hiddenFolder: URL { folder.appendingPathComponent("componentctl-hidden/\(configuration)") }
    private var hidingRecord: URL { folder.appendingPathComponent("componentctl-hidden/\(configuration).from") }
    private var recordsFolder: URL { folder.appendingPathComponent("componentctl-own/\(configuration)") }

    /// The arguments after `swift` that make SwiftPM write its plan for the package at `path`, building nothing.
    func planArguments(packagePath path: String, flags: [String]) -> [String] {
        ["build", "--package-path", path, "-c", configuration] + flags + ["--scratch-path", Self.path, "--print-manifest-job-graph"]
    }

    /// Removes the plans earlier builds left, so that ``readPlan(of:)`` never reads a stale one.
    func removePlans() {
        planFiles().forEach { try? FileManager.default.removeItem(at: $0) }
    }

    /// The plans in the folder: one per target triple (`x86_64-unknown-linux-gnu/debug/description.json`).
    private func planFiles() -> [URL] {
        Self.names(in: folder).map { folder.appendingPathComponent("\($0)/\(configuration)/description.json") }.filter {
            FileManager.default.fileExists(atPath: $0.path)
        }
    }

    /// Reads the plan SwiftPM wrote for the package in `packageFolder`.
    func readPlan(of packageFolder: URL) throws -> Plan {
        let files = planFiles()
        let planFile = files.first ?? folder.appendingPathComponent("\(configuration)/description.json")
        guard files.count == 1, let data = FileManager.default.contents(atPath: planFile.path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let commands = json["swiftCommands"] as? [String: [String: Any]]
        else {
            throw ToolError(
                "Cannot read SwiftPM's build plan \(planFile.path): this SwiftPM writes it in a form componentctl does not know. "
                    + "Run the build with --scratch package (each package in its own folder).", status: .environment)
        }
        let own = Self.realPath(packageFolder) + "/"
        var plan = Plan(modulesFolder: planFile.deletingLastPathComponent().appendingPathComponent("Modules"), modules: [], ownModules: [])
        if let targets = json["targetDependencyMap"] as? [String: Any] { plan.modules.formUnion(targets.keys) }
        for command in commands.values {
            guard let module = command["moduleName"] as? String else { continue }
            plan.modules.insert(module)
            if let path = command["importPath"] as? String { plan.modulesFolder = URL(fileURLWithPath: path) }
            let inputs = (command["inputs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            if inputs.contains(where: { $0.hasPrefix(own) }) { plan.ownModules.insert(module) }
        }
        return plan
    }

    /// Turns each checkout SwiftPM made since the last call into a link to the kept copy of its revision.
    func keepCheckouts() throws {
        let checkouts = folder.appendingPathComponent("checkouts"), kept = folder.appendingPathComponent("componentctl-checkouts")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        for name in Self.names(in: checkouts) {
            let checkout = checkouts.appendingPathComponent(name)
            // A branch's checkout moves with the branch; only a revision names one tree.
            guard let revision = Self.detachedRevision(of: checkout) else { continue }
            // Relative, so that the folder still works where a CI cache restores it.
            let link = "../componentctl-checkouts/\(name)@\(revision)"
            let copy = kept.appendingPathComponent("\(name)@\(revision)")
            let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: checkout.path)
            if linked == link { continue }
            // SwiftPM made a new checkout, or moved a kept one to another revision.
            let current = linked.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : checkouts.appendingPathComponent($0).standardizedFileURL } ?? checkout
            if linked != nil { try FileManager.default.removeItem(at: checkout) }
            if FileManager.default.fileExists(atPath: copy.path) {
                try FileManager.default.removeItem(at: current)
            } else {
                try FileManager.default.moveItem(at: current, to: copy)
            }
            try FileManager.default.createSymbolicLink(atPath: checkout.path, withDestinationPath: link)
        }
    }

    private static func detachedRevision(of checkout: URL) -> String? {
        guard let head = try? String(contentsOf: checkout.appendingPathComponent(".git/HEAD"), encoding: .utf8) else { return nil }
        let revision = head.trimmingCharacters(in: .whitespacesAndNewlines)
        return revision.count == 40 && revision.allSatisfy(\.isHexDigit) ? revision : nil
    }

    /// Moves every module that `plan` does not hold out of the compiler's sight.
    func hideModules(outside plan: Plan) throws {
        try FileManager.default.createDirectory(at: hiddenFolder, withIntermediateDirectories: true)
        // Where they go back to, should this run be killed before it puts them back.
        try AtomicFile.write(Data(plan.modulesFolder.path.utf8), to: hidingRecord)
        for name in Self.names(in: plan.modulesFolder) where !plan.modules.contains(Self.module(ofFile: name)) {
            let from = plan.modulesFolder.appendingPathComponent(name), to = hiddenFolder.appendingPathComponent(name)
            guard rename(from.path, to.path) == 0 else {
                throw ToolError(
                    "Cannot move \(from.path) aside: \(String(cString: strerror(errno))). Make .build writable and run again.", status: .environment)
            }
        }
    }

    /// Puts back every module ``hideModules(outside:)`` moved aside, also those of a run that was killed.
    func restoreModules(into modulesFolder: URL) {
        for name in Self.names(in: hiddenFolder) {
            let from = hiddenFolder.appendingPathComponent(name), to = modulesFolder.appendingPathComponent(name)
            // A module built again since is newer than the copy moved aside.
            if FileManager.default.fileExists(atPath: to.path) {
                try? FileManager.default.removeItem(at: from)
            } else {
                rename(from.path, to.path)
            }
        }
    }

    /// Takes the folder for this run, waiting while another componentctl builds in it, and puts back what a
    /// killed run left hidden. The lock ends with the returned value.
    func lock(waiting note: (String) -> Void) throws -> ScratchLock {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = try ScratchLock(path: folder.appendingPathComponent("componentctl.lock").path, waiting: note)
        if let hiding = try? String(contentsOf: hidingRecord, encoding: .utf8) { restoreModules(into: URL(fileURLWithPath: hiding)) }
        return lock
    }

    /// Removes what another package's build compiled of `component`'s own modules since its own build last passed,
    /// so this build compiles them again with only its own plan in view.
    func discardForeignBuilds(of component: String, plan: Plan) {
        let recorded = records(of: component)
        for module in plan.ownModules {
            guard let current = fingerprint(of: module, in: plan), current != recorded[module] else { continue }
            discard(module, in: plan)
        }
    }

    /// Records the files of `component`'s own modules after its own build passed.
    func recordOwnBuild(of component: String, plan: Plan) throws {
        var records: [String: String] = [:]
        for module in plan.ownModules {
            records[module] = fingerprint(of: module, in: plan)
        }
        let data = try JSONSerialization.data(withJSONObject: records, options: [.sortedKeys])
        try FileManager.default.createDirectory(at: recordsFolder, withIntermediateDirectories: true)
        try AtomicFile.write(data, to: recordsFolder.appendingPathComponent("\(component).json"))
    }

    private func records(of component: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: recordsFolder.appendingPathComponent("\(component).json").path) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: String]) ?? [:]
    }

    /// The size and time of change of a module's interface and objects: any compile changes them.
    private func fingerprint(of module: String, in plan: Plan) -> String? {
        let interface = plan.modulesFolder.appendingPathComponent("\(module).swiftmodule")
        guard let first = Self.stamp(interface.path) else { return nil }
        let objects = plan.modulesFolder.deletingLastPathComponent().appendingPathComponent("\(module).build")
        let stamps = Self.names(in: objects).filter { $0.hasSuffix(".o") }.sorted().compactMap { name in
            Self.stamp(objects.appendingPathComponent(name).path).map { "\(name)=\($0)" }
        }
        return ([first] + stamps).joined(separator: " ")
    }

    /// Removes a module's compiled files and the compiler's incremental record, so it is compiled whole again.
    private func discard(_ module: String, in plan: Plan) {
        for name in Self.names(in: plan.modulesFolder) where Self.module(ofFile: name) == module {
            try? FileManager.default.removeItem(at: plan.modulesFolder.appendingPathComponent(name))
        }
        let objects = plan.modulesFolder.deletingLastPathComponent().appendingPathComponent("\(module).build")
        for name in Self.names(in: objects) where [".o", ".swiftdeps", ".priors"].contains(where: name.hasSuffix) {
            try? FileManager.default.removeItem(at: objects.appendingPathComponent(name))
        }
    }

    private static func stamp(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// `Router.swiftmodule`, `Router.swiftdoc` and `Router.abi.json` are all of module `Router`.
    private static func module(ofFile name: String) -> String {
        String(name.prefix { $0 != "." })
    }

    private static func names(in folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// SwiftPM names sources by their real path.
    private static func realPath(_ url: URL) -> String {
        guard let resolved = realpath(url.path, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// An exclusive `flock` on the shared scratch folder; the kernel drops it when the process ends.
final class ScratchLock {
    private let descriptor: Int32

    init(path: String, waiting note: (String) -> Void) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ToolError("Cannot open \(path): \(String(cString: strerror(errno))). Make .build writable and run again.", status: .environment)
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            note("Another componentctl is building in \(SharedScratch.path); waiting for it to finish.\n")
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw ToolError("Cannot lock \(path): \(String(cString: strerror(errno))).", status: .environment)
                }
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
