import Foundation
import Testing
import Router

/// A seeded generator of malformed and hostile URLs: every one must be parsed or refused with a
/// RouterError, never crash. `ROUTER_FUZZ_COUNT` sets how many (`make fuzz` runs a million in release).
@Suite struct FuzzTests {
    private static let pieces = [
        "myapp://", "MYAPP://", "https://", "x://", "://", "myapp:", "//", "/", "?", "#", "&", "=", "%", "%2", "%2F", "%zz", "%FF", "%C3",
        "%00", "\u{0}", "+", " ", "..", ".", ":id", "<int:id>", "*", "product", "cart", "ü", "😀", "\u{FFFD}", "\n", "\\", "`", "@",
        "user:pass@", "[::1]", "a=b", "q=%E2%82", String(repeating: "a", count: 300), String(repeating: "/x", count: 50),
    ]

    private static func url(_ generator: inout SeededGenerator) -> String {
        switch generator.below(10) {
        case 0: return String(repeating: "/seg", count: generator.below(5_000)) // deep paths
        case 1: return "myapp://p/" + String(repeating: "%41", count: generator.below(3_000)) // huge inputs
        case 2:
            let bytes = (0..<generator.below(64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            return String(decoding: bytes, as: UTF8.self) // random bytes, repaired to UTF-8
        default:
            return (0..<generator.below(12)).map { _ in generator.pick(pieces) }.joined()
        }
    }

    private static let patternPieces = [
        "myapp://", "MYAPP://", "x://", "://", "myapp:", "/", "//", "?", "#", "%", "%2F", "%zz", "%C3%BC", "\u{0}", "p", "Cart",
        ":", ":id", ":id2", ":1x", "<", ">", "<int:n>", "<uuid:u>", "<sku:s>", "<int>", "<:x>", "<int:id>", "*", "*rest", "*1",
        "ü", " ", "a-b", "_", "..",
    ]

    /// Patterns are refused with a RouterError or work: every accepted one registers, is found by a
    /// URL built from it, and is removed again; its parts read back consistently.
    @Test func malformedPatternsAreRefusedOrWork() throws {
        let count = Int(ProcessInfo.processInfo.environment["ROUTER_FUZZ_COUNT"] ?? "").map { $0 / 10 } ?? 20_000
        var generator = SeededGenerator(state: 0xFACADE)
        var accepted = 0
        for _ in 0..<count {
            // Most start like a pattern, so that most get past the scheme to the parts after it.
            let start = generator.below(5) == 0 ? "" : generator.pick(["myapp://", "MYAPP://", "x://"])
            let text = start + (0..<generator.below(8)).map { _ in generator.pick(Self.patternPieces) }.joined()
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(parsing: text)
            } catch is RouterError {
                continue
            }
            accepted += 1
            #expect(!pattern.host.isEmpty && pattern.scheme == pattern.scheme.lowercased(), "\(text.debugDescription)")
            #expect(pattern.captureNames == pattern.segments.compactMap(\.captureName), "\(text.debugDescription)")
            #expect(Set(pattern.captureNames).count == pattern.captureNames.count, "\(text.debugDescription)")
            let router = Router()
            do {
                try router.register(text, owner: "fuzz") { _ in nil }
            } catch let error as RouterError {
                // Only an unknown parameter type may refuse an accepted pattern.
                let unknownType = pattern.segments.contains { segment in
                    if case .typed(_, let type) = segment { !["int", "uuid"].contains(type) } else { false }
                }
                #expect(unknownType, "\(text.debugDescription): \(error)")
                continue
            }
            let values = Dictionary(
                uniqueKeysWithValues: pattern.segments.compactMap { segment -> (String, String)? in
                    switch segment {
                    case .literal: nil
                    case .parameter(let name), .wildcard(let name): (name, "v")
                    case .typed(let name, let type): (name, type == "int" ? "7" : "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
                    }
                })
            let url = try pattern.url(with: values)
            let match = try router.lookup(url)
            #expect(match?.pattern == pattern, "\(text.debugDescription) -> \(url)")
            for (name, value) in values { #expect(match?.parameter(name) == value, "\(text.debugDescription) -> \(url)") }
            #expect(try router.unregister(text))
            #expect(try router.lookup(url) == nil, "\(text.debugDescription) -> \(url)")
        }
        #expect(accepted > count / 10)
    }

    @Test func malformedURLsNeverCrashTheRouter() async throws {
        let count = Int(ProcessInfo.processInfo.environment["ROUTER_FUZZ_COUNT"] ?? "") ?? 20_000
        let router = Router()
        try router.register("myapp://product/<int:id>", owner: "t") { _ in 1 }
        try router.register("myapp://p/:name/*rest", owner: "t") { _ in 2 }
        try router.register("myapp://search/:q", owner: "t") { _ in 3 }
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
