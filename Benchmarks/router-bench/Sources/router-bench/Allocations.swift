import MallocInterposerSwift

/// Counts heap allocations with ordo-one's malloc interposer, which counts only when its library is
/// preloaded (`LD_PRELOAD=.../libMallocInterposerSwift.so`); without it every count would read 0.
enum Allocations {
    /// Whether counting works in this process: a known allocation must be seen.
    static var areCounted: Bool {
        count { [UInt8](repeating: 1, count: 64 + Int.random(in: 0...1)).count } > 0
    }

    /// The allocations `body` makes, after a first uncounted run has made the one-time ones
    /// (the runtime's lazily built type metadata, say).
    static func count(_ body: () -> Int) -> Int {
        _ = body()
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        let checksum = body()
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return statistics.mallocCount + (checksum == Int.min ? 1 : 0)
    }
}
