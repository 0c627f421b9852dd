import CPluginHost
import Foundation
import Router

/// One run's marks around calls into one plugin, in a file of the store that outlives a crash of the
/// run: a later start reads whether the run died inside the plugin's code, and whether the plugin's own
/// code (a call after its load) ran.
struct CallLedger: @unchecked Sendable {
    // Shared memory, only touched through the C functions' atomic operations.
    private let slots: UnsafeMutablePointer<PluginCallLedger>

    /// What a finished run's ledger says.
    struct Reading: Equatable {
        /// The run died inside a call into the plugin.
        var diedInside: Bool
        /// A call into the plugin after its load returned.
        var ranAfterLoad: Bool
    }

    /// Maps `run`'s ledger of `id` in `store`; nil when it cannot be made (its calls go unmarked then,
    /// and a crash of the run counts against the plugin, as it would without marks).
    static func open(in store: PluginStore, id: String, run: RunMark = .current) -> CallLedger? {
        guard (try? store.makeFolder(folder(of: store))) != nil else { return nil }
        return plugin_call_ledger_map(file(in: store, id: id, run: run).path).map(CallLedger.init(slots:))
    }

    /// The marks to run around each call.
    var calls: PluginCalls {
        PluginCalls(enter: { plugin_call_ledger_enter(slots) }, leave: { plugin_call_ledger_leave(slots) })
    }

    /// Marks the plugin's load finished: calls from now on are its own code running.
    func loaded() { plugin_call_ledger_loaded(slots) }

    /// What `run`'s ledger of `id` says; nil when it has none.
    static func read(in store: PluginStore, id: String, run: RunMark) -> Reading? {
        guard let data = FileManager.default.contents(atPath: file(in: store, id: id, run: run).path),
            data.count == MemoryLayout<PluginCallLedger>.size
        else { return nil }
        let ledger = data.withUnsafeBytes { $0.loadUnaligned(as: PluginCallLedger.self) }
        return Reading(diedInside: ledger.calls_in_progress > 0, ranAfterLoad: ledger.ran_after_load != 0)
    }

    /// Deletes `run`'s ledger of `id`.
    static func remove(in store: PluginStore, id: String, run: RunMark) {
        try? FileManager.default.removeItem(at: file(in: store, id: id, run: run))
    }

    private static func folder(of store: PluginStore) -> URL { store.folder.appendingPathComponent("runs") }

    private static func file(in store: PluginStore, id: String, run: RunMark) -> URL {
        folder(of: store).appendingPathComponent("\(run.pid)-\(run.started)-\(id).calls")
    }
}
