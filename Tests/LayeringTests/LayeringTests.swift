import Foundation
import Testing

@Suite struct LayeringTests {
    private var workspace: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func noBusinessImplementationImportsOrDependsOnAnother() throws {
        let guardrail = LayeringGuard(root: workspace)
        #expect(try guardrail.businessPackages().count >= 5)
        let findings = try guardrail.findings()
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test func theGuardCatchesAnInjectedViolation() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID())")
        for package in ["Cart", "Order"] {
            let sources = copy.appendingPathComponent("Packages/Business/\(package)/Sources/\(package)")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try Data("// import Cart\n".utf8).write(to: copy.appendingPathComponent("Packages/Business/\(package)/Package.swift"))
        }
        let orderSource = copy.appendingPathComponent("Packages/Business/Order/Sources/Order/Checkout.swift")
        try Data("""
            import Foundation
            /* import Cart
               still a comment */
            @testable public import Cart
            import struct Cart.CartStore
            """.utf8).write(to: orderSource)
        try Data("\n.package(path: \"../Cart\"),\n".utf8).write(to: copy.appendingPathComponent("Packages/Business/Order/Package.swift"))

        let findings = try LayeringGuard(root: copy).findings()
        #expect(findings.map(\.file) == [
            "Packages/Business/Order/Package.swift",
            "Packages/Business/Order/Sources/Order/Checkout.swift",
            "Packages/Business/Order/Sources/Order/Checkout.swift",
        ])
        #expect(findings.map(\.line) == [2, 4, 5])
        #expect(findings[1].message == "Order imports business implementation Cart; import CartInterface and use the router")
    }
}
