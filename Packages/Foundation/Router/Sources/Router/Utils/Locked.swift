import Foundation

/// State behind a pthread mutex (`NSLock`): what the router's writers and slow paths share.
///
/// Not `Synchronization.Mutex`: on Linux its contended path takes the lock inside the kernel
/// (a priority-inheriting futex), which Thread Sanitizer cannot see, so every contended section
/// is reported as a data race (a 10-line program of eight threads appending under a Mutex shows
/// it). Thread Sanitizer understands pthread mutexes, so `make tsan` stays meaningful.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
