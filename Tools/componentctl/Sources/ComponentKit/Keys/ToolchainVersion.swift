import Foundation
import PluginFeed

/// `swift --version` of a toolchain, its lines joined, remembered per build of the toolchain: running it costs more
/// than the rest of a key of a large workspace.
///
/// It is remembered only for a driver with its compiler (`swift-frontend`, a file of its own, not a link) beside it, by
/// their real paths and file identities (device, inode, size, times): installing another toolchain there changes them.
/// A shim that picks a toolchain at each run has no such compiler beside it (xcrun has none; swiftly links every name,
/// `swift-frontend` too, to itself), so it is run every time.
enum ToolchainVersion {
    static func of(swift: String, environment: [String: String]) throws -> String {
        let driver = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
        let frontend = driver.deletingLastPathComponent().appendingPathComponent("swift-frontend")
        guard let driverIdentity = FileStatus.identity(driver, following: true), let frontendIdentity = FileStatus.identity(frontend),
            FileStatus.isRegularFile(frontend), !FileStatus.isSymbolicLink(frontend), frontendIdentity.prefix(2) != driverIdentity.prefix(2),
            let folder = ResultsCache.userCacheFolder(environment)?.appendingPathComponent("toolchains")
        else { return try run(swift) }
        // The variables that make the driver run another compiler are part of what it reports.
        let overrides = ["SWIFT_DRIVER_SWIFT_FRONTEND_EXEC", "SWIFT_EXEC"].map { "\($0)=\(environment[$0] ?? "")" }
        let fingerprint = [driver.path, "\(driverIdentity)", frontend.path, "\(frontendIdentity)"] + overrides
        let entry = folder.appendingPathComponent(Digest.sha256(Data(fingerprint.joined(separator: "\n").utf8)))
        // What another process wrote there is trusted only when it reads as a version could: one line of printable text.
        if let known = try? String(contentsOf: entry, encoding: .utf8), isVersionText(known) { return known }
        let version = try run(swift)
        // Remembering is an optimization: a cache folder that cannot be written costs the next run the same time again.
        if (try? FileStatus.createFolder(folder, purpose: "the toolchain versions")) != nil {
            try? AtomicFile.write(Data(version.utf8), to: entry)
        }
        return version
    }

    private static func run(_ swift: String) throws -> String {
        let run: ProcessRunner.Output
        do {
            // The driver leaves a temporary folder behind even for --version: it goes in one of ours, removed after.
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("componentctl-version-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: temporary) }
            run = try ProcessRunner.run(URL(fileURLWithPath: swift), ["--version"], environment: ["TMPDIR": temporary.path])
        } catch {
            throw ToolError(
                "Cannot run the Swift compiler '\(swift)' (\(ToolError.describe(error))). Set COMPONENTCTL_SWIFT to a swift executable, "
                    + "or unset it to use the one on the PATH.", status: .environment)
        }
        guard run.status == 0 else {
            throw ToolError("'\(swift) --version' failed (\(run.status)): \(run.errorText) Is Swift installed and on the PATH?", status: .environment)
        }
        let lines = run.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let version = lines.joined(separator: "; ")
        guard isVersionText(version) else {
            throw ToolError(
                "'\(swift) --version' printed no version (\(version.isEmpty ? "nothing" : "control characters")). Set COMPONENTCTL_SWIFT to a swift "
                    + "executable, or unset it to use the one on the PATH.", status: .environment)
        }
        return version
    }

    private static func isVersionText(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
    }
}
