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
}
