import Dispatch
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP (Ctrl-C, a stop request, a closed terminal) into a call on a queue of
/// their own while it is watching, so the App can end its run before it exits (the signals' default
/// action would end the process at once, as a crash would).
final class InterruptWatch {
    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    private let sources: [any DispatchSourceSignal]

    /// Starts watching; `handler` gets the signal's number and should exit.
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "app.interrupts"))
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops watching: the signals' default action is back.
    func stop() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
