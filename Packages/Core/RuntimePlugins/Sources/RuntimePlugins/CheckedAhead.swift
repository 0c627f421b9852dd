import Dispatch
import Foundation
import Glibc
import PluginFeed
import Synchronization

/// Installed versions checked on another thread while the App starts (``RuntimePluginManager/checkAhead()``),
/// so that the start's load only maps and registers them. Only a check that passed is kept, with the library
/// file it read held open: that file, not whatever has the name by then, is what the load maps.
final class CheckedAhead: Sendable {
    private let running = DispatchGroup()
    private let checked = Mutex<[String: VerifiedVersion]>([:])

    /// Runs `check` on a thread of its own and keeps the versions it returns.
    func start(_ check: @escaping @Sendable () -> [VerifiedVersion]) {
        running.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let passed = check()
            checked.withLock { checked in
                for version in passed { checked[Self.key(version.manifest.id, version.manifest.version)] = version }
            }
            running.leave()
        }
    }

    /// The passed check of `id` at `version`, if there is one; waits for a check still running. Each is
    /// taken once.
    func take(_ id: String, _ version: String) -> VerifiedVersion? {
        running.wait()
        return checked.withLock { $0.removeValue(forKey: Self.key(id, version)) }
    }

    /// Lets go of the checks no load took (their files close).
    func discardRest() {
        running.wait()
        checked.withLock { $0.removeAll() }
    }

    private static func key(_ id: String, _ version: String) -> String { "\(id)@\(version)" }
}

/// An installed version whose signature and library hash passed their check.
struct VerifiedVersion: Sendable {
    let manifest: PluginManifest
    /// The library's file.
    let library: URL
    /// The library file as it was read and hashed, held open.
    let opened: OpenLibrary
}

/// A library file held open from its check to its load, so the file loaded is the file that was hashed, even
/// if another takes its name meanwhile. Closed when this goes, or never once a library is loaded from it.
final class OpenLibrary: Sendable {
    /// The file's descriptor.
    let descriptor: Int32
    private let kept = Atomic(false)

    /// Takes ownership of `descriptor`.
    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The path the loader opens it by (the kernel's name of this very file), or nil without `/proc`.
    var path: String? {
        let path = "/proc/self/fd/\(descriptor)"
        return access(path, R_OK) == 0 ? path : nil
    }

    /// Keeps the descriptor open until the process ends: the loader knows a library by its path, and the
    /// number of a closed descriptor, reused for the next plugin, would name the library already loaded.
    func keepOpen() { kept.store(true, ordering: .relaxed) }

    deinit {
        if !kept.load(ordering: .relaxed) { close(descriptor) }
    }
}
