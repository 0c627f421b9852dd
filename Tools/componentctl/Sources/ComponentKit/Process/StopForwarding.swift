import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// While a child runs, a request to stop componentctl (SIGTERM, SIGHUP: a CI runner cancelling, a closed
/// terminal) is passed on to the child as the interrupt SwiftPM knows (SIGINT: it stops its build and test
/// processes), instead of ending componentctl alone and leaving `swift test` running. Ctrl-C already reaches
/// the whole process group, so SIGINT keeps its default.
final class StopForwarding {
    private final class Received: Sendable {
        let signal = Mutex<Int32?>(nil)
    }

    private static let forwarded = [SIGTERM, SIGHUP]
    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    /// Starts forwarding to `process`, which must be running (its own signal dispositions are the defaults).
    init(to process: Process) {
        let pid = process.processIdentifier
        let received = received
        sources = Self.forwarded.map { signal in
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                received.signal.withLock { $0 = $0 ?? signal }
                kill(pid, SIGINT)
            }
            source.resume()
            return source
        }
    }

    /// Stops forwarding, restoring the default actions; the signal that asked to stop, if one did.
    func finish() -> Int32? {
        for source in sources { source.cancel() }
        for signal in Self.forwarded { Glibc.signal(signal, SIG_DFL) }
        return received.signal.withLock { $0 }
    }
}
