import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// While a child runs, a request to stop componentctl (Ctrl-C's SIGINT, SIGTERM, SIGHUP: a CI runner cancelling, a
/// closed terminal) is passed on to the child's whole process group as the interrupt SwiftPM knows (SIGINT: it stops
/// its build and test processes), and componentctl waits for it to end. Foundation starts every child in a process
/// group of its own, which Ctrl-C in a terminal does not reach: without this, the child would run on unseen.
/// A second request, or a group still running `grace` seconds after the first, is ended with SIGKILL, and so is what
/// is left of the group once the child ended. A request while no child runs or starts ends componentctl as the signal's
/// default action would. Descendants that left the group (SwiftPM runs a compiled manifest in a group of its own) get
/// the same signals: they would otherwise keep componentctl waiting on the pipes they inherited.
///
/// Signal handlers belong to the whole process, so there is one forwarding, installed when componentctl starts
/// (``install()``) and kept: libdispatch installs a signal source's handler once per signal, and a handler (unlike an
/// ignored signal) is reset to the default in a child when it executes its program.
public final class StopForwarding: Sendable {
    /// One child being forwarded to, for the code that started it.
    final class Child: Sendable {
        fileprivate let process: pid_t
        fileprivate let target: pid_t
        fileprivate let received = Mutex<Int32?>(nil)
        /// The descendants outside the child's group, listed at the first signal: once the child ended they are no
        /// longer its descendants.
        private let strays = Mutex<[pid_t]?>(nil)
        private let forwarding: StopForwarding

        fileprivate init(process: pid_t, target: pid_t, forwarding: StopForwarding) {
            self.process = process
            self.target = target
            self.forwarding = forwarding
        }

        /// Sends `signal` to the child's group and to its descendants outside it.
        fileprivate func send(_ signal: Int32) {
            let outside = strays.withLock { strays in
                if strays == nil { strays = ProcessTree.descendants(of: process) }
                return strays ?? []
            }
            kill(target, signal)
            ProcessTree.signal(signal, outside, outside: target < 0 ? -target : -1)
        }

        /// Kills the child, its group and its descendants, unless it ended already; whether it was still running.
        @discardableResult
        func end() -> Bool {
            guard forwarding.state.withLock({ $0.children.contains { $0 === self } }) else { return false }
            send(SIGKILL)
            return true
        }

        /// Stops forwarding to this child, which ended; the signal that asked to stop while it ran, if one did. What is
        /// left of its group then (a process that ignored the interrupt) is killed.
        func finish() -> Int32? {
            forwarding.state.withLock { $0.children.removeAll { $0 === self } }
            let signal = received.withLock { $0 }
            if signal != nil {
                if target < 0 { kill(target, SIGKILL) }
                ProcessTree.signal(SIGKILL, strays.withLock { $0 ?? [] }, outside: target < 0 ? -target : -1)
            }
            return signal
        }
    }

    private struct State {
        var children: [Child] = []
        /// Children being started: a request meanwhile waits for them instead of ending componentctl.
        var starting = 0
        var pending: Int32?
    }

    private static let forwarded = [SIGINT, SIGTERM, SIGHUP]
    private static let grace: TimeInterval = 10
    /// The process's one forwarding (signal dispositions are the process's, not a caller's).
    private static let shared = StopForwarding()

    private let state = Mutex(State())
    /// Set once here and never changed: the sources stay for the life of the process.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    private init() {
        // Blocked while libdispatch installs its handlers, so a request meanwhile waits instead of being lost.
        var requests = sigset_t(), previous = sigset_t()
        sigemptyset(&requests)
        for signal in Self.forwarded { sigaddset(&requests, signal) }
        pthread_sigmask(SIG_BLOCK, &requests, &previous)
        sources = Self.forwarded.map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { StopForwarding.shared.received(signal) }
            source.resume()
            return source
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// Installs the forwarding; componentctl calls it first thing, before any thread or child starts.
    public static func install() { _ = shared }

    private func received(_ signal: Int32) {
        let running: [Child]? = state.withLock { state in
            guard state.children.isEmpty && state.starting == 0 else {
                state.pending = state.pending ?? signal
                return state.children
            }
            return nil
        }
        guard let running else {
            Glibc.signal(signal, SIG_DFL)
            kill(getpid(), signal)
            return
        }
        for child in running { forward(signal, to: child) }
    }

    private func forward(_ signal: Int32, to child: Child) {
        let first = child.received.withLock { received in
            defer { received = received ?? signal }
            return received == nil
        }
        child.send(first ? SIGINT : SIGKILL)
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) { child.end() }
    }

    /// Runs `process` (``Process/run()``) with requests to stop forwarded to it; call ``Child/finish()`` once it ended.
    static func start(_ process: Process) throws -> Child {
        let forwarding = shared
        forwarding.state.withLock { $0.starting += 1 }
        do {
            try process.run()
        } catch {
            forwarding.state.withLock { $0.starting -= 1 }
            throw error
        }
        let pid = process.processIdentifier
        // The child's group, unless it shares ours: then only the child itself (signalling our group would stop us too).
        let child = Child(process: pid, target: getpgid(pid) == pid && getpgrp() != pid ? -pid : pid, forwarding: forwarding)
        let pending = forwarding.state.withLock { state in
            state.starting -= 1
            state.children.append(child)
            return state.pending
        }
        if let pending { forwarding.forward(pending, to: child) }
        return child
    }

    /// The error for a run that `signal` stopped while it did `what`: exit 128 + the signal's number, as a shell says.
    static func stopped(by signal: Int32, while what: String) -> ToolError {
        ToolError("Stopped (signal \(signal)) while \(what); nothing of it was recorded.", status: .stopped(signal))
    }
}
