import CPluginHost
import Dispatch
import Foundation
import Glibc
import PluginFeed
import Synchronization

/// Installed versions checked on another thread while the App starts (``RuntimePluginManager/checkAhead()``),
/// so that the start's load only maps and registers them. Only a check that passed is kept, with the bytes it
/// hashed in a sealed memory file: those, not the file, are what the load maps.
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

    /// Lets go of the checks no load took (their memory files close).
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
    /// The library's bytes as they were hashed; nil where the system has no sealed memory files.
    let image: SealedImage?
}

/// Bytes in a memory file sealed against any change (`memfd_create`), open as long as this lives, or for
/// good once a library is loaded from it.
final class SealedImage: Sendable {
    /// The memory file's descriptor.
    let descriptor: Int32
    private let kept = Atomic(false)

    /// Copies `bytes` into a new sealed memory file called `name`; nil when the system cannot (no
    /// `memfd_create`, or no `/proc` to open it by).
    init?(_ bytes: Data, name: String) {
        descriptor = bytes.withUnsafeBytes { plugin_host_sealed_image(name, $0.baseAddress, $0.count) }
        guard descriptor >= 0 else { return nil }
        guard access("/proc/self/fd/\(descriptor)", R_OK) == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// The path the loader opens it by.
    var path: String { "/proc/self/fd/\(descriptor)" }

    /// Keeps the descriptor open until the process ends: the loader knows a library by its path, and the
    /// number of a closed descriptor, reused for the next plugin, would name the library already loaded.
    func keepOpen() { kept.store(true, ordering: .relaxed) }

    deinit {
        if !kept.load(ordering: .relaxed) { close(descriptor) }
    }
}
