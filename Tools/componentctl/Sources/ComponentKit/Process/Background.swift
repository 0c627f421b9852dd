import Foundation
import Synchronization

/// Work started on a thread of its own, whose result is waited for later: what overlaps a child process or a
/// status read with the rest of a command.
public final class Background<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` now.
    public init(_ work: @escaping @Sendable () throws -> Value) {
        Thread { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
    }

    /// Work already done, with its result: for a caller that has the value and a function that takes work in progress.
    public init(finished value: Value) {
        result.withLock { $0 = .success(value) }
        done.signal()
    }

    /// Waits for the work to end and returns its result, or throws its error (every call gets the same).
    public func wait() throws -> Value {
        done.wait()
        done.signal()
        guard let outcome = result.withLock({ $0 }) else { preconditionFailure("signalled before the result was stored") }
        return try outcome.get()
    }
}
