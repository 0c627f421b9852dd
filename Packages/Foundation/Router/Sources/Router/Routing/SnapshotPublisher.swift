import Synchronization

/// Hands the route table's current snapshot to lookups without a lock, and says when the snapshots it
/// replaced can be freed.
///
/// The invariant, in one place: a retired snapshot is freed only under the table's lock, and only
/// when, after it was withdrawn, the count of running lookups was seen at zero (or at one, by the
/// lookup that published its successor). All operations are sequentially consistent, so a lookup that
/// starts after a withdrawal sees no snapshot or a newer one: once the count is seen at zero, no lookup
/// can hold a retired snapshot.
final class SnapshotPublisher: Sendable {
    /// The current snapshot, unretained: the router's table owns it.
    private let published = Atomic<Unmanaged<RouteSnapshot>?>(nil)
    /// Lookups in progress.
    private let activeLookups = Atomic<Int>(0)

    /// Runs `body` on the published snapshot; when there is none, on the one `publish` provides (it takes
    /// the table's lock and calls ``publish(_:)``). The lookup counts itself in for the whole call.
    func read<R>(_ body: (RouteSnapshot) -> R, orPublish publish: () -> RouteSnapshot) -> R {
        activeLookups.add(1, ordering: .sequentiallyConsistent)
        defer { activeLookups.subtract(1, ordering: .sequentiallyConsistent) }
        if let snapshot = published.load(ordering: .sequentiallyConsistent) {
            return snapshot._withUnsafeGuaranteedRef(body)
        }
        return body(publish())
    }

    /// Publishes `snapshot`; call with the table's lock held, from inside ``read(_:orPublish:)``. Returns
    /// whether the retired snapshots can be freed now (only this lookup runs, and it reads `snapshot`).
    func publish(_ snapshot: RouteSnapshot) -> Bool {
        published.store(Unmanaged.passUnretained(snapshot), ordering: .sequentiallyConsistent)
        return activeLookups.load(ordering: .sequentiallyConsistent) == 1
    }

    /// Withdraws the published snapshot after the routes changed; call with the table's lock held.
    /// Returns whether the retired snapshots can be freed now (no lookup is running).
    func withdraw() -> Bool {
        published.store(nil, ordering: .sequentiallyConsistent)
        return activeLookups.load(ordering: .sequentiallyConsistent) == 0
    }
}
