// The product page with and without its plugins, in one run: the ratio, each plugin's cost, and the
// allocations a container's set-up makes per plugin (`--allocations`, with the interposer preloaded).
import CartInterface
import CartInterfaceTestSupport
import Foundation
import Models
import OrderInterface
import OrderInterfaceTestSupport
import Product
import ProductInterface
import Recommendations
import Reviews
import Router
import ScreenKit
import ShippingEstimate
import Storage

let sections: [any PluginDefinition.Type] = [ReviewsPlugin.self, RecommendationsPlugin.self, ShippingEstimatePlugin.self]

/// A router with the Product module, the stand-in services the plugins read, and `plugins` installed.
func app(_ plugins: [any PluginDefinition.Type]) async throws -> Router {
    let router = Router()
    let storage = try Storage()
    try router.services.register(Storage.self, owner: "bench", instance: storage)
    let line = { (id: Int, quantity: Int) in OrderLine(productID: id, name: "#\(id)", quantity: quantity, unitPrice: Money(cents: 100)) }
    let orders = (1...50).map {
        OrderSummary(id: $0, userID: "u\($0 % 7)", lines: [line(1, 1), line(2 + $0 % 5, 1)], total: Money(cents: 200), placedAt: Date())
    }
    try router.services.register((any OrderHistory).self, owner: "bench", instance: InMemoryOrderHistory(orders))
    try router.services.register((any CartService).self, owner: "bench", instance: InMemoryCartService())
    let declarations = plugins.map { PluginDeclaration(point: ProductSections.id, plugin: $0.id, source: "bench") }
    try router.plugins.install(points: [ProductSections.self], definitions: plugins, declarations: declarations)
    let modules: [any AppModule] = [ProductModule()] + router.plugins.modules()
    let manager = try ModuleManager(modules: modules, context: ModuleContext(router: router))
    try manager.registerAll()
    if plugins.contains(where: { $0 == ReviewsPlugin.self }) {
        for rating in 1...5 { _ = try await router.open("shop://product/1/reviews/new?rating=\(rating)&text=r\(rating)", as: Screen.self) }
    }
    return router
}

/// Median nanoseconds per call of `body` over `rounds` rounds of `count` calls, after a warm-up round.
func time(_ count: Int, rounds: Int = 15, _ body: () async throws -> Int) async throws -> Double {
    var samples: [Double] = []
    var checksum = 0
    for round in 0...rounds {
        let start = ContinuousClock.now
        for _ in 0..<count { checksum &+= try await body() }
        let elapsed = ContinuousClock.now - start
        if round > 0 { samples.append(Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9) }
    }
    if checksum == Int.min { print("") }
    return samples.sorted()[samples.count / 2] / Double(count)
}

func render(_ router: Router) async throws -> Int {
    try await router.open("shop://product/1", as: Screen.self).elements.count
}

if CommandLine.arguments.contains("--allocations") {
    exit(try Allocations.report())
}

let bare = try await app([])
let full = try await app(sections)
let alone = try await sections.asyncMap { try await app([$0]) }
let count = 2_000
// Each variant is measured in turn within one loop of rounds, so the machine's load touches them alike.
var results: [String: [Double]] = [:]
for _ in 0..<5 {
    results["before", default: []].append(try await time(count) { try await render(bare) })
    results["with", default: []].append(try await time(count) { try await render(full) })
    for (definition, router) in zip(sections, alone) {
        results[definition.id, default: []].append(try await time(count) { try await render(router) })
    }
    // A page made anew each time: the container's set-up, attach, and each plugin's first section.
    results["fresh", default: []].append(
        try await time(200, rounds: 5) {
            let page = full.plugins.container(ProductSections.self, router: full)
            let made = await page.contributions { try await $0.section(for: ProductSummary(id: 1, name: "Mug", price: Money(cents: 1250), blurb: "")) }
            page.detach()
            return made.count
        })
}
func median(_ key: String) -> Double { let values = results[key, default: [0]].sorted(); return values[values.count / 2] }
let before = median("before"), with = median("with")
print("product page, release, median of 5 × 15 rounds of \(count) opens through the router")
print("  before the plugins (Product alone)     \(String(format: "%9.1f", before / 1000)) µs")
print("  with reviews, recommendations, shipping \(String(format: "%8.1f", with / 1000)) µs   ratio \(String(format: "%.2f", with / before))x")
for definition in sections {
    print(
        "  + \(definition.id.padding(toLength: 36, withPad: " ", startingAt: 0)) \(String(format: "%9.1f", (median(definition.id) - before) / 1000)) µs per page"
    )
}
print("  a fresh page (container, attach, first sections)  \(String(format: "%6.1f", median("fresh") / 1000)) µs")

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
