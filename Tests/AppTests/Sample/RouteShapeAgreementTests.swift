import Foundation
import Router
import Testing

/// componentctl's static route-collision check keeps its own copy of the router's route shape (the tool
/// builds without the workspace); both must give every pattern the same shape.
@Suite struct RouteShapeAgreementTests {
    static let patterns = [
        "shop://product/<int:id>", "shop://Product/<int:sku>/", "shop://caf%C3%A9/menu", "shop://CAF%c3%a9/menu",
        "shop://a/%41b", "shop://a//b", "SHOP://x/:id/*rest", "shop://x/a%2Fb", "shop://h/<uuid:u>/reviews",
        "shop://h/Literal/Case", "shop://h/caf%c3%a9", "shop://h/plus+sign", "shop://h/%zz", "shop://h",
        "shop://user/login/:userID", "shop://user/login/alice", "shop://user/*rest", "shop://user", "shop://product/42",
        "shop://product/specials", "shop://h/8c5d3c4e-3f8a-4d2b-9a57-0d0c3e4f5a6b/reviews", "shop://x/:a/:b/c", "other://user/login/:id",
        "shop://user/login/%3Ax", "shop://CAF%C3%89/menu", "shop://caf%c3%a9/menu/:item",
    ]

    @Test func theToolAndTheRouterAgreeOnEveryShape() throws {
        let parsed = Self.patterns.compactMap { try? RoutePattern(parsing: $0) }
        #expect(parsed.count >= 12)
        let shapes = try AppProcess.componentctl(["dev", "route-shape"] + parsed.map(\.text))
        let lines = String(decoding: shapes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == parsed.count)
        for (pattern, tool) in zip(parsed, lines) {
            #expect(tool == pattern.shape, "\(pattern.text): componentctl says \(tool), the router \(pattern.shape)")
        }
    }

    /// A runtime plugin's route is refused by both when some URL matches it and another route.
    @Test func theToolAndTheRouterAgreeOnWhichPatternsOverlap() throws {
        let parsed = Self.patterns.compactMap { try? RoutePattern(parsing: $0) }
        let accepts = { (type: String, literal: String) in ParameterType.builtIn.first { $0.name == type }?.matches(literal) ?? true }
        var overlapping = 0
        for other in parsed {
            let output = try AppProcess.componentctl(["dev", "route-shape", "--overlaps-with", other.text] + parsed.map(\.text))
            let answers = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(answers.count == parsed.count)
            for (pattern, tool) in zip(parsed, answers) {
                let router = pattern.overlaps(other, accepts: accepts)
                if router { overlapping += 1 }
                #expect(tool == String(router), "\(pattern.text) and \(other.text): componentctl says \(tool), the router \(router)")
            }
        }
        #expect(overlapping > parsed.count, "pairs beyond a pattern and itself overlap")
    }
}
