import Foundation
import PluginFeed
public import Router

extension RuntimePluginManager {
    /// Loads every installed plugin into `router` and returns their modules (for lifecycle events). Never
    /// throws: a plugin that cannot load is reported and left out, and the App goes on.
    ///
    /// An update waiting is tried first; a version that fails to load is marked bad and the one before it
    /// loads instead. A version stays on trial until a run in which its own code ran (a call into it after
    /// its load) ends cleanly (``finishRun()``): two runs that died inside its code meanwhile (while it
    /// loaded or later) mark it bad, and the version it replaced is used again. A run that died elsewhere
    /// counts for nothing. Every load checks the signature and the hash again.
    public func loadInstalled(into router: Router, settings: [String: String] = [:]) -> [any AppModule] {
        guard FileManager.default.fileExists(atPath: store.stateURL.path) else { return [] }
        let plan: [StartPlan]
        do {
            plan = try startPlan()
        } catch {
            report("warning: runtime plugins are left out: \(error)\n")
            return []
        }
        var modules: [any AppModule] = []
        var outcome: [String: (loaded: String?, failed: [String])] = [:]
        for (id, tries, trial) in plan.map({ ($0.id, $0.tries, $0.trial) }) {
            var failed: [String] = []
            for version in tries {
                do {
                    if let module = try load(id, version, onTrial: version == trial, into: router, settings: settings) { modules.append(module) }
                    noteRun(id, "loaded \(version)")
                    outcome[id] = (version, failed)
                    break
                } catch let refusal as Incompatible {
                    report("warning: plugin \(id) \(version) is left out: \(refusal.reason). Run '\(configuration.command) update \(id)'.\n")
                    noteRun(id, "\(version) left out: \(refusal.reason)")
                    outcome[id] = (nil, failed)
                } catch let damaged as DamagedFiles {
                    report("warning: plugin \(id) \(version) is left out: \(damaged)\n")
                    noteRun(id, "\(version) left out: \(damaged)")
                    outcome[id] = (nil, failed)
                } catch {
                    report("warning: plugin \(id) \(version) failed to load and is marked bad: \(error)\n")
                    noteRun(id, "\(version) refused: \(error)")
                    failed.append(version)
                    outcome[id] = (nil, failed)
                }
            }
        }
        ahead.discardRest()
        // A start that loaded what the state names as current, with nothing on trial, has nothing to
        // record: the store is not locked and read a second time.
        let nothingToRecord = plan.allSatisfy { plan in
            let result = outcome[plan.id]
            return result?.failed.isEmpty != false && (plan.trial == nil || plan.trial == result?.loaded)
                && (plan.pending == nil || plan.pending != result?.loaded)
        }
        guard !nothingToRecord else { return modules }
        do {
            try store.change { state in
                for (id, result) in outcome {
                    guard var entry = state.plugins[id] else { continue }
                    for version in result.failed { markBad(version, in: &entry) }
                    // Only a version this run loaded is proven by its end: a mark left on another says nothing.
                    if let trial = entry.trial, trial.version != result.loaded { entry.trial?.runs.removeAll { $0 == RunMark.current } }
                    if let loaded = result.loaded, loaded == entry.pending {
                        if let current = entry.current, current != loaded { entry.previous = current }
                        entry.current = loaded
                        entry.pending = nil
                    }
                    state.plugins[id] = entry
                }
            }
        } catch {
            report("warning: the plugin store could not record this start: \(error)\n")
        }
        return modules
    }

    /// The versions this start tries, by id. Under the lock, counting the crashes of versions on trial, leaving
    /// this run's mark and removing what a change cut short left; without it when there is none of that to do,
    /// as nothing then changes (a state is only ever replaced whole, so the read sees one).
    private func startPlan() throws -> [StartPlan] {
        if let state = try? store.readState(), state.plugins.values.allSatisfy({ $0.trial == nil && $0.pending == nil }), !store.hasLeftovers() {
            return state.plugins.keys.sorted().compactMap { id in state.plugins[id]?.current.map { StartPlan(id: id, tries: [$0]) } }
        }
        return try store.change { state in
            state.plugins.keys.sorted().compactMap { id in
                guard var entry = state.plugins[id] else { return nil }
                countCrashes(id, in: &entry)
                var tries = [entry.pending, entry.current].compactMap { $0 }
                if tries.count == 2, tries[0] == tries[1] { tries.removeLast() }
                if let first = tries.first { beginRun(of: first, in: &entry) }
                state.plugins[id] = entry
                return tries.isEmpty ? nil : StartPlan(id: id, tries: tries, trial: entry.trial?.version, pending: entry.pending)
            }
        }
    }

    /// Starts checking, on a thread of its own, the signature and library hash of every installed version a
    /// start tries (an update waiting, the current one), so that ``loadInstalled(into:settings:)`` then only
    /// maps and registers them. The App calls it first thing in its start. It only reads the store.
    public func checkAhead() {
        guard FileManager.default.fileExists(atPath: store.stateURL.path) else { return }
        let (store, keys) = (store, configuration.keys)
        ahead.start {
            guard let state = try? store.readState() else { return [] }
            return state.plugins.flatMap { id, entry in
                Set([entry.pending, entry.current].compactMap { $0 }).compactMap { try? store.installed(id, $0, keys: keys) }
            }
        }
    }

    /// Ends this process's run of the plugins it loaded: each version on trial whose own code ran in it
    /// (a call after its load returned) has now run to a clean exit, so it is trusted and the version it
    /// replaced is deleted; a version whose code did not run stays on trial. The App calls it when it
    /// quits (the end of input, `quit`, an interrupt), never after a crash. With `trusting` false (a run
    /// interrupted before the App was up) its marks are only taken away: it was no crash, nor a proof.
    public func finishRun(trusting: Bool = true) {
        let mark = RunMark.current
        guard FileManager.default.fileExists(atPath: store.stateURL.path) else { return }
        // Most runs marked nothing (nothing they loaded was on trial): a read without the lock says so, as a
        // state is only ever replaced whole.
        let marked = (try? store.readState()).map { $0.plugins.values.contains { $0.trial?.runs.contains(mark) == true } }
        guard marked != false else { return }
        do {
            try store.change { state in
                for (id, var entry) in state.plugins where entry.trial?.runs.contains(mark) == true {
                    // Without a ledger (it could not be made) nothing says the plugin's code ran: no proof.
                    let ran = CallLedger.read(in: store, id: id, run: mark)?.ranAfterLoad ?? false
                    if trusting, ran {
                        entry.trial = nil
                        entry.previous = nil
                    } else {
                        entry.trial?.runs.removeAll { $0 == mark }
                    }
                    CallLedger.remove(in: store, id: id, run: mark)
                    state.plugins[id] = entry
                }
            }
        } catch {
            report("warning: the plugin store could not record that this run ended cleanly: \(error)\n")
        }
    }

    /// Loads `id` at `version` now (after an install); returns its module.
    public func loadNow(_ id: String, into router: Router, settings: [String: String] = [:]) throws -> (any AppModule)? {
        let found = try store.change { state -> (version: String, onTrial: Bool)? in
            guard var entry = state.plugins[id], entry.current != nil else { return nil }
            countCrashes(id, in: &entry)
            if let version = entry.current { beginRun(of: version, in: &entry) }
            state.plugins[id] = entry
            return entry.current.map { ($0, entry.trial?.version == $0) }
        }
        guard let (version, onTrial) = found else { throw FeedError("'\(id)' is not installed, or every version of it is marked bad") }
        do {
            let module = try load(id, version, onTrial: onTrial, into: router, settings: settings)
            noteRun(id, "loaded \(version)")
            return module
        } catch let refusal as Incompatible {
            dropMark(of: id)
            throw FeedError(refusal.reason)
        } catch let damaged as DamagedFiles {
            dropMark(of: id)
            throw FeedError(damaged.reason)
        } catch {
            try? store.change { state in
                guard var entry = state.plugins[id] else { return }
                markBad(version, in: &entry)
                state.plugins[id] = entry
            }
            throw error
        }
    }

    /// Takes this run's mark off `id`'s trial: the run did not load it after all.
    private func dropMark(of id: String) {
        try? store.change { state in state.plugins[id]?.trial?.runs.removeAll { $0 == RunMark.current } }
    }

    /// Counts the runs of the version on trial that died inside its code (or without a ledger to say
    /// where); at two, marks it bad. A run that died elsewhere leaves the trial as it was.
    private func countCrashes(_ id: String, in entry: inout StoreState.Plugin) {
        guard var trial = entry.trial else { return }
        let dead = trial.runs.filter { !$0.isRunning }
        for run in dead {
            if CallLedger.read(in: store, id: id, run: run)?.diedInside ?? true { trial.crashes += 1 }
            CallLedger.remove(in: store, id: id, run: run)
        }
        trial.runs.removeAll { dead.contains($0) }
        entry.trial = trial
        if trial.crashes >= 2 {
            report("warning: plugin \(id) \(trial.version) crashed the App twice inside its own code; it is marked bad and left out\n")
            markBad(trial.version, in: &entry)
        }
    }

    /// Leaves this process's mark on `version` if it is on trial (or an update about to be tried).
    private func beginRun(of version: String, in entry: inout StoreState.Plugin) {
        guard version == entry.pending || entry.trial?.version == version else { return }
        if entry.trial?.version != version { entry.trial = StoreState.Trial(version: version) }
        entry.trial?.runs.append(RunMark.current)
    }

    private func load(_ id: String, _ version: String, onTrial: Bool, into router: Router, settings: [String: String]) throws -> (any AppModule)? {
        let verified = try verified(id, version)
        let manifest = verified.manifest
        if let reason = host.incompatibility(of: manifest) { throw Incompatible(reason: reason) }
        store.checkpoint("load \(id) \(version)")
        // Only a version on trial needs to know where a run died.
        let ledger = onTrial ? CallLedger.open(in: store, id: id) : nil
        if onTrial, ledger == nil {
            report(
                "warning: plugin \(id) \(version) is on trial, but its calls cannot be marked in \(store.folder.path)/runs: it stays on trial, and any crash of this run counts against it\n"
            )
        }
        let loaded = try PluginLoader.load(
            verified, router: router, settings: settings, calls: ledger?.calls ?? PluginCalls()
        ) { breach in
            report(
                "warning: plugin \(id) \(version) tried to \(breach); it is turned off and marked bad ('\(configuration.command) update \(id)' looks for a fix)\n"
            )
            noteRun(id, "\(version) turned off: it tried to \(breach)")
            try? store.change { state in
                guard var entry = state.plugins[id] else { return }
                markBad(version, in: &entry)
                state.plugins[id] = entry
            }
        }
        ledger?.loaded()
        return loaded.module
    }

    /// The installed files of `id` at `version`, checked ahead of the load or now.
    private func verified(_ id: String, _ version: String) throws -> VerifiedVersion {
        if let checked = ahead.take(id, version) { return checked }
        // A key this configuration does not hold says nothing about the plugin (it may be another
        // configuration's): left out, never marked bad and deleted.
        let signature = store.versionFolder(id, version).appendingPathComponent(PluginArchive.signatureName)
        if let data = FileManager.default.contents(atPath: signature.path), !configuration.keys.holdsSigner(of: data) {
            throw Incompatible(reason: "it is signed by a key this App's plugin configuration does not trust")
        }
        return try store.installed(id, version, keys: configuration.keys)
    }

    /// Marks `version` bad: it never loads again, and the version it replaced (if kept) is used instead.
    private func markBad(_ version: String, in entry: inout StoreState.Plugin) {
        if !entry.bad.contains(version) { entry.bad.append(version) }
        if entry.candidate == version { entry.held = false }
        if entry.pending == version { entry.pending = nil }
        if entry.current == version {
            entry.current = entry.previous
            entry.previous = nil
        }
        if entry.trial?.version == version { entry.trial = nil }
    }
}

/// What a start tries for one plugin: the versions in order (an update waiting, then the current one),
/// and which of them is on trial and which is the update, as the state said.
struct StartPlan {
    var id: String
    var tries: [String]
    var trial: String? = nil
    var pending: String? = nil
}

/// A plugin built for another App: left out, not marked bad (an update of the plugin fixes it).
struct Incompatible: Error {
    var reason: String
}
