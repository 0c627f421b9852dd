import Foundation
import Testing
import Router

/// Eight readers and one writer replacing routes at once: run under Thread Sanitizer with
/// `swift test --sanitize=thread --filter ConcurrencyTests` (`make tsan`).
@Suite struct ConcurrencyTests {
    @Test func eightReadersAndOneWriter() async throws {
        let router = Router()
        for index in 0..<100 { try router.register("myapp://stable/\(index)", owner: "t") { _ in index } }
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<300 {
                    let pattern = "myapp://moving/\(round % 10)/:id"
                    try? router.register(pattern, owner: "writer") { _ in round }
                    _ = try router.unregister(pattern)
                    // A batch whose last route collides with a stable one: added, then withdrawn.
                    let batch = try ["myapp://batch/\(round % 10)/list", "myapp://stable/\(round % 100)"].map {
                        try RouteRegistration($0, owner: "writer") { _ in round }
                    }
                    #expect(throws: RouterError.self) { try router.register(batch) }
                }
            }
            for reader in 0..<8 {
                group.addTask {
                    for round in 0..<300 {
                        let value = try await router.open("myapp://stable/\((round + reader) % 100)", as: Int.self)
                        #expect(value == (round + reader) % 100)
                        _ = try router.match("myapp://moving/\(round % 10)/7")
                        #expect(try router.lookup("myapp://batch/\(round % 10)/list") == nil)
                        let match = try router.lookup("myapp://stable/\((round + reader) % 100)")
                        #expect(match?.pattern.text == "myapp://stable/\((round + reader) % 100)")
                        _ = router.routes.count
                    }
                }
            }
        }
        #expect(router.routes.count == 100)
    }
}
