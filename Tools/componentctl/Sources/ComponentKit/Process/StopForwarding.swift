import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// While a child runs, a request to stop componentctl (Ctrl-C's SIGINT, SIGTERM, SIGHUP: a CI runner cancelling, a
/// closed terminal) is passed on to the child's whole process group as the interrupt SwiftPM knows (SIGINT: it stops
/// its build and test processes), and componentctl waits for it to end. Foundation starts every child in a process
/// group of its own, which Ctrl-C in a terminal does not reach: without this, the child would run on unseen.
/// A second request, or a group still running `grace` seconds after the first, is ended with SIGKILL. A request
/// while no child runs ends componentctl as the signal's default action would.
///
/// Signal handlers belong to the whole process, so there is one forwarding, installed before the first child starts
/// and kept: libdispatch installs a signal source's handler once per signal, and a handler (unlike an ignored signal)
/// is reset to the default in a child when it executes its program.
final class StopForwarding: Sendable {
    /// One child being forwarded to, for the code that started it.
    final class Child: Sendable {
        fileprivate let target: pid_t
        fileprivate let received = Mutex<Int32?>(nil)
        private let forwarding: StopForwarding

        fileprivate init(target: pid_t, forwarding: StopForwarding) {
            self.target = target
            self.forwarding = forwarding
        }

        /// Stops forwarding to this child; the signal that asked to stop while it ran, if one did.
        func finish() -> Int32? {
            forwarding.children.withLock { $0.removeAll { $0 === self } }
            return received.withLock { $0 }
        }
    }

    private static let forwarded = [SIGINT, SIGTERM, SIGHUP]
    private static let grace: TimeInterval = 10
    /// The process's one forwarding (signal dispositions are the process's, not a caller's).
    private static let shared = StopForwarding()

    private let children = Mutex<[Child]>([])
    /// Set once here and never changed: the sources stay for the life of the process.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    private init() {
        sources = Self.forwarded.map { signal in
            // Ignored until libdispatch's handler is in place, so no request is lost meanwhile.
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { StopForwarding.shared.received(signal) }
            source.resume()
            return source
        }
    }

    private func received(_ signal: Int32) {
        let running = children.withLock { $0 }
        guard !running.isEmpty else {
            Glibc.signal(signal, SIG_DFL)
            kill(getpid(), signal)
            return
        }
        for child in running {
            let first = child.received.withLock { received in
                defer { received = received ?? signal }
                return received == nil
            }
            kill(child.target, first ? SIGINT : SIGKILL)
            guard first else { continue }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) { [self] in
                if children.withLock({ $0.contains { $0 === child } }) { kill(child.target, SIGKILL) }
            }
        }
    }

    /// Runs `process` (``Process/run()``) with requests to stop forwarded to it; call ``Child/finish()`` once it ended.
    static func start(_ process: Process) throws -> Child {
        let forwarding = shared
        try process.run()
        let pid = process.processIdentifier
        // The child's group, unless it shares ours: then only the child itself (signalling our group would stop us too).
        let child = Child(target: getpgid(pid) == pid && getpgrp() != pid ? -pid : pid, forwarding: forwarding)
        forwarding.children.withLock { $0.append(child) }
        return child
    }

    /// The error for a run that `signal` stopped while it did `what`.
    static func stopped(by signal: Int32, while what: String) -> ToolError {
        ToolError("Stopped (signal \(signal)) while \(what); nothing of it was recorded.", status: .buildFailed)
    }
}
