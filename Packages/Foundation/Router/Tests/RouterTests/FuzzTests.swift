import Foundation
import Testing
import Router

/// A seeded generator of malformed and hostile URLs: every one must be parsed or refused with a
/// RouterError, never crash. `ROUTER_FUZZ_COUNT` sets how many (`make fuzz` runs a million in release).
@Suite struct FuzzTests {
    private static let pieces = [
        "shop://", "SHOP://", "https://", "x://", "://", "shop:", "//", "/", "?", "#", "&", "=", "%", "%2", "%2F", "%zz", "%FF", "%C3",
        "%00", "\u{0}", "+", " ", "..", ".", ":id", "<int:id>", "*", "product", "cart", "ü", "😀", "\u{FFFD}", "\n", "\\", "`", "@",
        "user:pass@", "[::1]", "a=b", "q=%E2%82", String(repeating: "a", count: 300), String(repeating: "/x", count: 50),
    ]

    private static func url(_ generator: inout SeededGenerator) -> String {
        switch generator.below(10) {
        case 0: return String(repeating: "/seg", count: generator.below(5_000))  // deep paths
        case 1: return "shop://p/" + String(repeating: "%41", count: generator.below(3_000))  // huge inputs
        case 2:
            let bytes = (0..<generator.below(64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            return String(decoding: bytes, as: UTF8.self)  // random bytes, repaired to UTF-8
        default:
            return (0..<generator.below(12)).map { _ in generator.pick(pieces) }.joined()
        }
    }

    @Test func malformedURLsNeverCrashTheRouter() async throws {
        let count = Int(ProcessInfo.processInfo.environment["ROUTER_FUZZ_COUNT"] ?? "") ?? 20_000
        let router = Router()
        try router.register("shop://product/<int:id>", owner: "t") { _ in 1 }
        try router.register("shop://p/:name/*rest", owner: "t") { _ in 2 }
        try router.register("shop://search/:q", owner: "t") { _ in 3 }
        router.setFallback { _ in 0 }
        var generator = SeededGenerator(state: 0xC0FFEE)
        var parsed = 0, refused = 0
        for _ in 0..<count {
            let text = Self.url(&generator)
            // The byte-level lookup must refuse exactly what parsing refuses, and agree with `match`.
            let lookup = Result { try router.lookup(text)?.pattern.text }
            do {
                _ = try RouteURL(text)
                let matched = try router.match(text)?.pattern?.text
                #expect(try lookup.get() == matched, "\(text.debugDescription)")
                parsed += 1
            } catch is RouterError {
                #expect(throws: RouterError.self, "\(text.debugDescription)") { try lookup.get() }
                refused += 1
            }
        }
        #expect(parsed + refused == count)
        #expect(parsed > 0 && refused > 0)
        // Opening runs the whole path, handlers included, on a sample.
        for _ in 0..<min(count, 2_000) {
            _ = try? await router.open(Self.url(&generator))
        }
    }
}
