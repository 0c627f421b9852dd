import Foundation

/// The scratch folder every standalone build shares, kept as strict as a folder of each package's own.
///
/// Sharing one folder lets a component reuse what another's build compiled, but SwiftPM hands the compiler the
/// whole `Modules/` folder, so a module another package built would satisfy an import this package never declared.
/// Three rules keep every result what the package's own folder would give, and the sharing real:
/// - **Each build sees only what it builds.** Before a build, every module the package's build would not make is
///   moved out of `Modules/` (and `Modules-tool/`, where macros and plugin tools go), and moved back after it.
/// - **A module compiled with more in view is compiled again.** Another package's build may have compiled a module
///   this one shares while modules this one lacks were in view. The compiler lists in each `.d` file the modules a
///   compile loaded; a module that loaded one this build would not make loses its compiled files, so this build
///   compiles it anew and fails where a folder of its own would.
/// - **A checkout outlives the packages that do not use it.** SwiftPM deletes the checkout of a package the current
///   package does not use and clones it again for the next one that does, with new files, so all of it would
///   compile again. Each checkout is kept as `componentctl-checkouts/<name>@<revision>`, which `checkouts/<name>`
///   links to. A kept copy no build linked for ``keptCheckoutLifetime`` is removed.
struct SharedScratch {
    /// How long a kept checkout stays after the last build that used it: a revision no component pins any more goes.
    static let keptCheckoutLifetime: TimeInterval = 14 * 24 * 3600

    /// The folder, relative to the workspace root.
    static let path = ".build/componentctl-shared"

    /// The modules one build of a package makes, which are all it may see.
    struct Plan {
        /// The folder of this configuration's build (`x86_64-unknown-linux-gnu/debug`).
        var buildFolder: URL
        /// Every module the package's build makes, its dependencies' included.
        var modules: Set<String>

        /// The folders the compiler searches for Swift modules: the target's and the host's (macros, plugin tools).
        var modulesFolders: [URL] { ["Modules", "Modules-tool"].map(buildFolder.appendingPathComponent) }
    }

    let root: URL
    let configuration: String

    var folder: URL { root.appendingPathComponent(Self.path) }
    private var hiddenFolder: URL { folder.appendingPathComponent("componentctl-hidden/\(configuration)") }
    private var hidingRecord: URL { folder.appendingPathComponent("componentctl-hidden/\(configuration).from") }

    /// The arguments after `swift` that make SwiftPM write its plan for the package at `path`, building nothing.
    func planArguments(packagePath path: String, flags: [String]) -> [String] {
        ["build", "--package-path", path, "-c", configuration] + flags + ["--scratch-path", Self.path, "--print-manifest-job-graph"]
    }

    /// The arguments after `swift` that make SwiftPM resolve and check out the dependencies of the package at `path`.
    func resolveArguments(packagePath path: String, flags: [String]) -> [String] {
        ["package", "--package-path", path, "-c", configuration] + flags + ["--scratch-path", Self.path, "resolve"]
    }

    /// Removes the plans earlier builds left, so that ``readPlan(of:)`` never reads a stale one.
    func removePlans() {
        planFiles().forEach { try? FileManager.default.removeItem(at: $0) }
    }

    /// Whether a plan is in the folder (a build that fails before planning writes none).
    var hasPlan: Bool { !planFiles().isEmpty }

    /// The plans in the folder: one per target triple (`x86_64-unknown-linux-gnu/debug/description.json`).
    private func planFiles() -> [URL] {
        Self.names(in: folder).map { folder.appendingPathComponent("\($0)/\(configuration)/description.json") }.filter {
            FileManager.default.fileExists(atPath: $0.path)
        }
    }

    /// Reads the plan SwiftPM wrote for the package at `package` (relative to the root): its planning call writes one, and so does
    /// each build.
    ///
    /// SwiftPM plans every target of each product a dependency offers, but builds only those its targets need;
    /// the plan's modules are those. Its tests are the package's own targets that none of the others depends on
    /// and that a test product does.
    func readPlan(of package: String) throws -> PlanDescription {
        let packageFolder = root.appendingPathComponent(package)
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
        let ownPrefix = Self.realPath(packageFolder) + "/"
        var own = Set<String>()
        for command in commands.values {
            guard let module = command["moduleName"] as? String else { continue }
            let inputs = (command["inputs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            if inputs.contains(where: { $0.hasPrefix(ownPrefix) }) { own.insert(module) }
        }
        let targets = json["targetDependencyMap"] as? [String: [String]] ?? [:]
        let dependencies = Dictionary(targets.map { (c99ModuleName($0.key), Set($0.value.map(c99ModuleName))) }, uniquingKeysWith: { $0.union($1) })
        let needs = { (module: String) in dependencies[module, default: []].union([module]) }
        let testProducts = (json["builtTestProducts"] as? [[String: Any]] ?? []).compactMap { $0["productName"] as? String }.map(c99ModuleName)
        let testNeeds = Set(testProducts.flatMap(needs))
        let dependedOn = Set(own.flatMap { dependencies[$0, default: []] })
        let tests = own.filter { testNeeds.contains($0) && !dependedOn.contains($0) }
        let modules = Set(own.subtracting(tests).flatMap(needs))
        return PlanDescription(
            package: package, buildFolder: Self.realPath(planFile.deletingLastPathComponent()), modules: modules, testModules: modules.union(testNeeds),
            dependencies: dependencies)
    }

    /// Turns each checkout SwiftPM made since the last call into a link to the kept copy of its revision.
    func keepCheckouts() throws {
        let checkouts = folder.appendingPathComponent("checkouts"), kept = folder.appendingPathComponent("componentctl-checkouts")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        var inUse = Set<String>()
        defer { removeKeptCheckouts(unusedSince: Date().addingTimeInterval(-Self.keptCheckoutLifetime), except: inUse) }
        for name in swiftPMCheckouts() {
            let checkout = checkouts.appendingPathComponent(name)
            let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: checkout.path)
            // A link componentctl did not make leads to files it must not move.
            if let linked, !linked.hasPrefix("../componentctl-checkouts/") { continue }
            // Only a checkout at a revision (SwiftPM detaches even a branch's) names one tree.
            guard let revision = Self.detachedRevision(of: checkout) else { continue }
            // Relative, so that the folder still works where a CI cache restores it.
            let link = "../componentctl-checkouts/\(name)@\(revision)"
            inUse.insert("\(name)@\(revision)")
            if linked == link {
                Self.markUsed(kept.appendingPathComponent("\(name)@\(revision)"))
                continue
            }
            // SwiftPM made a new checkout, or checked out another revision inside a kept one.
            let current = linked.map { checkouts.appendingPathComponent($0).standardizedFileURL } ?? checkout
            let copy = kept.appendingPathComponent("\(name)@\(revision)")
            if Self.detachedRevision(of: copy) == revision {
                try discardFolder(current)
            } else {
                // A copy left half made by a killed run is no copy of that revision.
                if FileManager.default.fileExists(atPath: copy.path) { try discardFolder(copy) }
                try FileManager.default.moveItem(at: current, to: copy)
            }
            Self.markUsed(copy)
            // Replaced in one step: a killed run leaves the old entry or the new link, never neither.
            let temporary = checkouts.appendingPathComponent(".\(name).componentctl-link")
            try? FileManager.default.removeItem(at: temporary)
            try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: link)
            guard rename(temporary.path, checkout.path) == 0 else {
                throw ToolError("Cannot link \(checkout.path) to its kept copy: \(String(cString: strerror(errno))).", status: .environment)
            }
        }
    }

    /// Records that a build uses the kept copy `copy` now: its folder's modification time.
    private static func markUsed(_ copy: URL) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: copy.path)
    }

    /// Removes the kept copies, except `inUse`, that no build used since `date`. Only names of the form `<name>@<40 hex>`
    /// are componentctl's; anything else there is left alone.
    func removeKeptCheckouts(unusedSince date: Date, except inUse: Set<String>) {
        let kept = folder.appendingPathComponent("componentctl-checkouts"), checkouts = folder.appendingPathComponent("checkouts")
        // A copy a link of checkouts/ leads to stays, whichever package's build made the link.
        let linked = Set(
            Self.names(in: checkouts).compactMap { name in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: checkouts.appendingPathComponent(name).path))?.split(separator: "/").last.map(
                    String.init)
            })
        for name in Self.names(in: kept) where !inUse.contains(name) && !linked.contains(name) {
            guard let at = name.lastIndex(of: "@"), name[name.index(after: at)...].count == 40,
                name[name.index(after: at)...].allSatisfy(\.isHexDigit),
                let used = try? FileManager.default.attributesOfItem(atPath: kept.appendingPathComponent(name).path)[.modificationDate] as? Date,
                used < date
            else { continue }
            try? discardFolder(kept.appendingPathComponent(name))
        }
    }

    /// The checkouts SwiftPM's own record of the folder names: no other entry of `checkouts/` is touched.
    private func swiftPMCheckouts() -> [String] {
        checkoutRecords().compactMap { dependency in
            guard let name = dependency["subpath"] as? String, !name.contains("/"), name != ".." else { return nil }
            return name
        }
    }

    /// The identities of the packages checked out in the folder, as SwiftPM's record has them.
    func checkedOutPackages() -> Set<String> {
        Set(checkoutRecords().compactMap { ($0["packageRef"] as? [String: Any])?["identity"] as? String })
    }

    /// The entries of SwiftPM's record of the folder that are checkouts.
    private func checkoutRecords() -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("workspace-state.json").path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let dependencies = (json["object"] as? [String: Any])?["dependencies"] as? [[String: Any]]
        else { return [] }
        return dependencies.filter { ($0["state"] as? [String: Any])?["name"] as? String == "sourceControlCheckout" }
    }

    /// The file SwiftPM locks while it works in the folder: in the temporary folder, named after the folder's path.
    private var swiftPMLock: String {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return temporary + "/" + Self.realPath(folder).replacingOccurrences(of: "/", with: "_") + ".lock"
    }

    /// Moves a folder of the scratch into its trash at once, then deletes it: a killed run leaves no half-deleted folder
    /// where one is expected.
    private func discardFolder(_ url: URL) throws {
        let trash = folder.appendingPathComponent("componentctl-trash")
        try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
        let destination = trash.appendingPathComponent(UUID().uuidString)
        try FileManager.default.moveItem(at: url, to: destination)
        try FileManager.default.removeItem(at: destination)
    }

    private static func detachedRevision(of checkout: URL) -> String? {
        guard let head = try? String(contentsOf: checkout.appendingPathComponent(".git/HEAD"), encoding: .utf8) else { return nil }
        let revision = head.trimmingCharacters(in: .whitespacesAndNewlines)
        return revision.count == 40 && revision.allSatisfy(\.isHexDigit) ? revision : nil
    }

    /// The modules in the folders the compiler searches in a build of `plan`.
    func builtModules(in plan: Plan) -> Set<String> {
        Set(plan.modulesFolders.flatMap { Self.names(in: $0) }.map(Self.module(ofFile:)))
    }

    /// Moves every module that `plan` does not hold out of the compiler's sight.
    func hideModules(outside plan: Plan) throws {
        // Where they go back to, should this run be killed before it puts them back.
        try FileManager.default.createDirectory(at: hiddenFolder, withIntermediateDirectories: true)
        try AtomicFile.write(Data(plan.buildFolder.path.utf8), to: hidingRecord)
        for modules in plan.modulesFolders {
            let hidden = hiddenFolder.appendingPathComponent(modules.lastPathComponent)
            try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
            for name in Self.names(in: modules) where !plan.modules.contains(Self.module(ofFile: name)) {
                let from = modules.appendingPathComponent(name)
                guard rename(from.path, hidden.appendingPathComponent(name).path) == 0 else {
                    throw ToolError(
                        "Cannot move \(from.path) aside: \(String(cString: strerror(errno))). Make .build writable and run again.", status: .environment)
                }
            }
        }
    }

    /// Puts back every module ``hideModules(outside:)`` moved aside from `buildFolder`, also those of a run that was killed.
    func restoreModules(into buildFolder: URL) {
        for folderName in Self.names(in: hiddenFolder) {
            let hidden = hiddenFolder.appendingPathComponent(folderName), modules = buildFolder.appendingPathComponent(folderName)
            for name in Self.names(in: hidden) {
                let from = hidden.appendingPathComponent(name), to = modules.appendingPathComponent(name)
                // A module built again since is newer than the copy moved aside.
                if FileManager.default.fileExists(atPath: to.path) {
                    try? FileManager.default.removeItem(at: from)
                } else {
                    rename(from.path, to.path)
                }
            }
        }
    }

    /// Takes the folder for this run, waiting while another componentctl builds in it, and puts back what a
    /// killed run left hidden. The lock ends with the returned value.
    func lock(waiting note: (String) -> Void) throws -> ScratchLock {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lock = try ScratchLock(path: folder.appendingPathComponent("componentctl.lock").path, waiting: note)
        // A swift that outlived a killed componentctl still holds SwiftPM's own lock; its files must settle first.
        try ScratchLock.waitForRelease(of: swiftPMLock, waiting: note)
        if let hiding = try? String(contentsOf: hidingRecord, encoding: .utf8) { restoreModules(into: URL(fileURLWithPath: hiding)) }
        try forgetBuildsMadeElsewhere()
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("componentctl-trash"))
        return lock
    }

    /// Empties the folder of what was built at another path: a copy restored from a CI cache into another checkout holds
    /// a Clang module cache the compiler refuses there ("compiled with module cache path ..."), and compiled files whose
    /// dependency records name the old paths, which the `.d` check would not recognize. Checkouts do not depend on the
    /// path, so they stay.
    private func forgetBuildsMadeElsewhere() throws {
        let record = folder.appendingPathComponent("componentctl-location")
        let here = Self.realPath(folder)
        if (try? String(contentsOf: record, encoding: .utf8)) == here { return }
        let pathFree: Set<String> = [
            "componentctl-checkouts", "checkouts", "repositories", "workspace-state.json", "componentctl.lock", "componentctl-location",
            "componentctl-trash", "componentctl-hidden",
        ]
        for name in Self.names(in: folder) where !pathFree.contains(name) { try discardFolder(folder.appendingPathComponent(name)) }
        try AtomicFile.write(Data(here.utf8), to: record)
    }

    /// Removes the compiled files of each module of `plan` whose last compile loaded a module `plan` lacks, so
    /// that this build compiles it again with only its own modules in view (`built`: ``builtModules(in:)``).
    func discardModulesCompiledWithMoreInView(_ plan: Plan, built: Set<String>) {
        let folders = Set(plan.modulesFolders.map { $0.path + "/" })
        let compiled = { (module: String) in
            plan.modulesFolders.contains { FileManager.default.fileExists(atPath: $0.appendingPathComponent("\(module).swiftmodule").path) }
        }
        for module in plan.modules where compiled(module) {
            // A compile that left no dependency file cannot say what it saw.
            let loaded = Self.loadedModules(by: module, in: plan.buildFolder, from: folders)
            if loaded.map({ !$0.isSubset(of: plan.modules) }) ?? true {
                discard(module, in: plan)
                continue
            }
            // `#if canImport(M)` asks without loading: no `.d` file tells whether M was in view.
            let asked = Self.modulesAskedFor(by: module, in: plan.buildFolder)
            if !asked.intersection(built).isSubset(of: plan.modules) { discard(module, in: plan) }
        }
    }

    /// The modules that a `canImport(...)` in `module`'s sources (listed in its `sources` file) names.
    private static func modulesAskedFor(by module: String, in buildFolder: URL) -> Set<String> {
        let list = buildFolder.appendingPathComponent("\(module).build/sources")
        guard let paths = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        var asked = Set<String>()
        for line in paths.split(whereSeparator: \.isNewline) {
            let path = line.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("canImport(") else { continue }
            for part in text.components(separatedBy: "canImport(").dropFirst() {
                let name = part.drop { $0 == " " }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty { asked.insert(String(name)) }
            }
        }
        return asked
    }

    /// The modules of `folders` that the dependency files (`.d`) of `module`'s last compile name; nil without any.
    private static func loadedModules(by module: String, in buildFolder: URL, from folders: Set<String>) -> Set<String>? {
        var loaded = Set<String>()
        var read = false
        for objects in ["\(module).build", "\(module)-tool.build"].map(buildFolder.appendingPathComponent) {
            for name in names(in: objects) where name.hasSuffix(".d") {
                guard let data = FileManager.default.contents(atPath: objects.appendingPathComponent(name).path) else { continue }
                read = true
                loaded.formUnion(swiftModules(namedIn: data, under: folders))
            }
        }
        return read ? loaded : nil
    }

    /// The modules whose `.swiftmodule` a dependency file's `text` names in one of `folders` (each ending in `/`).
    ///
    /// A package's `.d` files come to megabytes (every header a C module includes): only the places where a path
    /// ends in `.swiftmodule` are looked at, found by the C library's `strstr`.
    static func swiftModules(namedIn text: Data, under folders: Set<String>) -> Set<String> {
        // No path holds a NUL: it parts two as a space does.
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0 }
        // strstr stops at a NUL: one ends the text, and the search goes on after any other.
        let bytes = [UInt8](text) + [0]
        return bytes.withUnsafeBufferPointer { buffer -> Set<String> in
            guard let base = buffer.baseAddress else { return [] }
            let suffix = ".swiftmodule", suffixLength = suffix.utf8.count
            var modules = Set<String>(), offset = 0
            while offset < text.count {
                let chunk = UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
                guard let hit = strstr(chunk, suffix) else {
                    offset += strlen(chunk) + 1
                    continue
                }
                let end = base.distance(to: UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self)) + suffixLength
                offset = end
                // A module of the toolchain is named twice: `Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftmodule`.
                guard end == text.count || isSpace(buffer[end]) else { continue }
                // Make escapes a space in a path as `\ `.
                var start = end - suffixLength
                while start > 0, !isSpace(buffer[start - 1]) || (buffer[start - 1] == 0x20 && start > 1 && buffer[start - 2] == UInt8(ascii: "\\")) {
                    start -= 1
                }
                let path = String(decoding: buffer[start..<end], as: UTF8.self).replacingOccurrences(of: "\\ ", with: " ")
                guard let slash = path.lastIndex(of: "/"), folders.contains(String(path[...slash])) else { continue }
                modules.insert(module(ofFile: String(path[path.index(after: slash)...])))
            }
            return modules
        }
    }

    /// Removes a module's compiled files and the compiler's incremental record, so it is compiled whole again.
    private func discard(_ module: String, in plan: Plan) {
        for modules in plan.modulesFolders {
            for name in Self.names(in: modules) where Self.module(ofFile: name) == module {
                try? FileManager.default.removeItem(at: modules.appendingPathComponent(name))
            }
        }
        for objects in ["\(module).build", "\(module)-tool.build"].map(plan.buildFolder.appendingPathComponent) {
            for name in Self.names(in: objects) where [".o", ".swiftdeps", ".priors", ".d"].contains(where: name.hasSuffix) {
                try? FileManager.default.removeItem(at: objects.appendingPathComponent(name))
            }
        }
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
        do {
            try Self.take(descriptor, path: path) { note("Another componentctl is building in \(SharedScratch.path); waiting for it to finish.\n") }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Waits while another process holds the `flock` of the file at `path` (SwiftPM's lock of its scratch folder).
    static func waitForRelease(of path: String, waiting note: (String) -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        try take(descriptor, path: path) { note("A swift build is still running in \(SharedScratch.path); waiting for it to finish.\n") }
        flock(descriptor, LOCK_UN)
    }

    private static func take(_ descriptor: Int32, path: String, waiting: () -> Void) throws {
        guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else { return }
        waiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw ToolError("Cannot lock \(path): \(String(cString: strerror(errno))).", status: .environment) }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
