import ComponentKit
import Foundation
import Testing
import TestSupport

/// Copies the sample workspace, injects one violation of a rule, and expects exactly that finding.
@Suite struct LayerCheckerMutationTests {
    private func findings(_ scratch: Scratch) throws -> [Diagnostic] {
        LayerChecker(analysis: WorkspaceAnalysis.analyze(try scratch.load())).findings()
    }

    /// Adds a path dependency, a target dependency and an import, so only the layering itself is wrong.
    private func addDependency(
        _ scratch: Scratch, component: String, target: String, on path: String, module: String, source: String
    ) throws {
        let manifest = "\(component)/Package.swift"
        if try scratch.read(manifest).contains("    dependencies: [\n") {
            try scratch.replace(in: manifest, "    dependencies: [\n", with: "    dependencies: [\n        .package(path: \"\(path)\"),\n")
        } else {
            try scratch.replace(in: manifest, "    targets: [\n", with: "    dependencies: [.package(path: \"\(path)\")],\n    targets: [\n")
        }
        if try scratch.read(manifest).contains(".target(name: \"\(target)\", dependencies: [") {
            try scratch.replace(in: manifest, ".target(name: \"\(target)\", dependencies: [", with: ".target(name: \"\(target)\", dependencies: [\"\(module)\", ")
        } else {
            try scratch.replace(in: manifest, ".target(name: \"\(target)\")", with: ".target(name: \"\(target)\", dependencies: [\"\(module)\"])")
        }
        try scratch.write("\(component)/Sources/\(target)/\(source)", "import \(module)\n")
    }

    @Test func theSampleWorkspaceIsClean() throws {
        #expect(try findings(Scratch.sample()).isEmpty)
    }

    @Test func businessImplementationOnAnotherImplementation() throws {
        let scratch = try Scratch.sample()
        try addDependency(scratch, component: "Packages/Business/Order", target: "Order", on: "../Cart", module: "Cart", source: "Shortcut.swift")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implementation-to-implementation"])
        #expect(found.first?.path == "Packages/Business/Order/Package.swift")
        #expect(found.first?.line == 11)
        #expect(found.first?.fix?.contains("depend on 'cart-interface' (CartInterface) instead of 'cart'") == true)
    }

    @Test func coreOnBusinessIsUpward() throws {
        let scratch = try Scratch.sample()
        try addDependency(scratch, component: "Packages/Core/Storage", target: "Storage", on: "../../Interfaces/CartInterface",
                          module: "CartInterface", source: "Up.swift")
        #expect(try findings(scratch).map(\.rule) == ["layer-order"])
    }

    @Test func coreOnCoreNeedsAnAllowedPair() throws {
        let scratch = try Scratch.sample()
        try scratch.replace(in: "components.yaml", "    - core/session -> core/storage\n", with: "    []\n")
        try scratch.replace(in: "components.yaml", "  allow:                    # explicit same-layer exceptions (core -> core)\n    []\n",
                            with: "  allow: []\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["unlisted-same-layer"])
        #expect(found.first?.fix?.contains("add '- core/session -> core/storage' under rules.allow") == true)
    }

    @Test func foundationOnFoundation() throws {
        let scratch = try Scratch.sample()
        try addDependency(scratch, component: "Packages/Foundation/ScreenKit", target: "ScreenKit", on: "../Models", module: "Models", source: "M.swift")
        #expect(try findings(scratch).map(\.rule) == ["same-layer-forbidden"])
    }

    @Test func interfaceOnAnImplementation() throws {
        let scratch = try Scratch.sample()
        try addDependency(scratch, component: "Packages/Interfaces/CartInterface", target: "CartInterface", on: "../../Core/Storage",
                          module: "Storage", source: "S.swift")
        #expect(try findings(scratch).map(\.rule) == ["interface-purity"])
    }

    @Test func cycleWithFullPath() throws {
        let scratch = try Scratch.sample()
        try scratch.replace(in: "components.yaml", "    - core/session -> core/storage\n",
                            with: "    - core/session -> core/storage\n    - core/storage -> core/session\n")
        let storage = "Packages/Core/Storage/Package.swift"
        try scratch.replace(in: storage, "    dependencies: [\n", with: "    dependencies: [\n        .package(path: \"../Session\"),\n")
        try scratch.replace(in: storage, "dependencies: [.product(name: \"GRDB\", package: \"GRDB.swift\")]",
                            with: "dependencies: [.product(name: \"GRDB\", package: \"GRDB.swift\"), \"Session\"]")
        try scratch.write("Packages/Core/Storage/Sources/Storage/Loop.swift", "import Session\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["cycle"])
        #expect(found.first?.message == "dependency cycle: session -> storage -> session")
    }

    @Test func unregisteredPackage() throws {
        let scratch = try Scratch.sample()
        try scratch.package("Packages/Extra/Widget", name: "Widget")
        try addDependency(scratch, component: "Packages/Business/Product", target: "Product", on: "../../Extra/Widget", module: "Widget", source: "W.swift")
        #expect(try findings(scratch).map(\.rule) == ["unknown-dependency"])
    }

    @Test func implicitImportOfABusinessImplementation() throws {
        let scratch = try Scratch.sample()
        try scratch.write("Packages/Business/Order/Sources/Order/Sneaky.swift", "// fine: import Cart\n\n@testable import Cart\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implicit-import"])
        #expect(found.first?.path == "Packages/Business/Order/Sources/Order/Sneaky.swift")
        #expect(found.first?.line == 3)
        #expect(found.first?.column == 18)
        #expect(found.first?.message.contains("declaring it would break [implementation-to-implementation]") == true)
    }

    @Test func implicitImportOfATransitiveModuleSaysWhatToDeclare() throws {
        let scratch = try Scratch.sample()
        try scratch.write("Packages/Business/Home/Sources/Home/Transitive.swift", "#if os(Linux)\nimport Storage\n#endif\n")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["implicit-import"])
        #expect(found.first?.message.contains("(in #if os(Linux))") == true)
        #expect(found.first?.fix?.hasPrefix("add .product(name: \"Storage\", package: \"Storage\")") == true)
    }

    @Test func canImportGuardedImportsAreOptional() throws {
        let scratch = try Scratch.sample()
        try scratch.write("Packages/Business/Home/Sources/Home/Platform.swift", "#if canImport(Storage)\nimport Storage\n#endif\n")
        #expect(try findings(scratch).isEmpty)
    }

    @Test func redundantDependencyIsAWarning() throws {
        let scratch = try Scratch.sample()
        let manifest = "Packages/Interfaces/UserInterface/Package.swift"
        try scratch.replace(in: manifest, "    dependencies: [\n", with: "    dependencies: [\n        .package(path: \"../../Foundation/Models\"),\n")
        try scratch.replace(in: manifest, ".target(name: \"UserInterface\", dependencies: [\"Router\"]",
                            with: ".target(name: \"UserInterface\", dependencies: [\"Router\", \"Models\"]")
        let found = try findings(scratch)
        #expect(found.map(\.rule) == ["redundant-dependency"])
        #expect(found.first?.severity == .warning)
    }

    @Test func rulesAreData() throws {
        // An explicit pair under rules.allow legalises one edge, whatever the layer's policy.
        let scratch = try Scratch.sample()
        try addDependency(scratch, component: "Packages/Business/Order", target: "Order", on: "../Cart", module: "Cart", source: "Shortcut.swift")
        try addDependency(scratch, component: "Packages/Foundation/ScreenKit", target: "ScreenKit", on: "../Models", module: "Models", source: "M.swift")
        try scratch.replace(in: "components.yaml", "    - core/session -> core/storage\n",
                            with: "    - core/session -> core/storage\n    - business/order -> business/cart\n")
        #expect(try findings(scratch).map(\.rule) == ["same-layer-forbidden"])
        try scratch.replace(in: "components.yaml", "  allow:", with: "  same-layer: {foundation: allow-list}\n  allow:\n    - foundation/screen-kit -> foundation/models")
        let found = try findings(scratch)
        #expect(found.isEmpty, "\(found.map(\.text))")
    }
}

@Suite struct RouteCollisionTests {
    @Test func twoComponentsClaimingOneShapeAreCaughtStatically() throws {
        let scratch = try Scratch.sample()
        try scratch.write("Packages/Business/Cart/Sources/Cart/Promo.swift", """
            import Router
            func registerPromo(_ router: Router) throws {
                try router.register("shop://product/<int:sku>", owner: "cart") { _ in nil }
            }
            """)
        let found = LayerChecker(analysis: WorkspaceAnalysis.analyze(try scratch.load())).findings()
        #expect(found.map(\.rule) == ["route-collision"])
        // The later one in components.yaml order is flagged; the message names both owners and places.
        #expect(found.first?.path == "Packages/Interfaces/ProductInterface/Sources/ProductInterface/ProductInterface.swift")
        #expect(found.first?.message == "route 'shop://product/<int:id>' of 'product' has the shape of 'shop://product/<int:sku>' of 'cart' "
            + "(Packages/Business/Cart/Sources/Cart/Promo.swift:3:25); the router refuses the second at launch")
    }

    @Test func routesRegisteredInABatchAreCaughtToo() throws {
        let scratch = try Scratch.sample()
        try scratch.write("Packages/Business/Cart/Sources/Cart/Promo.swift", """
            import Router
            func registerPromo(_ router: Router) throws {
                try router.register([
                    RouteRegistration("shop://promo/list", owner: "cart") { _ in nil },
                    RouteRegistration("shop://product/<int:code>", owner: "cart") { _ in nil },
                ])
            }
            """)
        let found = LayerChecker(analysis: WorkspaceAnalysis.analyze(try scratch.load())).findings()
        #expect(found.map(\.rule) == ["route-collision"])
        #expect(found.first?.message.contains("'shop://product/<int:code>' of 'cart' (Packages/Business/Cart/Sources/Cart/Promo.swift:5:27)") == true)
    }

    @Test func demosAndTestsMayStandIn() throws {
        // UserDemo registers a stand-in for shop://order/list: demos and tests are not the App.
        let found = LayerChecker(analysis: WorkspaceAnalysis.analyze(try Scratch.sample().load())).findings()
        #expect(found.isEmpty)
    }
}
