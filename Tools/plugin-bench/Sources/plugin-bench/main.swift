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
func time(_ count: Int, rounds: Int = 9, _ body: () async throws -> Int) async throws -> Double {
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

/// Makes a page, asks each plugin for its section once, and detaches it: a page's whole life.
func freshPage(_ router: Router) async -> Int {
    let page = router.plugins.container(ProductSections.self, router: router)
    let product = ProductSummary(id: 1, name: "Mug", price: Money(cents: 1250), blurb: "")
    let made = await page.contributions { try await $0.section(for: product) }
    page.detach()
    return made.count
}

/// The sections of a page already made (what showing it again costs its plugins).
func sectionsOf(_ page: PluginContainer<ProductSections>) async -> Int {
    let product = ProductSummary(id: 1, name: "Mug", price: Money(cents: 1250), blurb: "")
    return await page.contributions { try await $0.section(for: product) }.count
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
let warm = alone.map { $0.plugins.container(ProductSections.self, router: $0) }
let count = 500
// Every variant is measured in each of 5 passes, so the machine's load touches them alike; the median wins.
var results: [String: [Double]] = [:]
for _ in 0..<5 {
    results["before", default: []].append(try await time(count) { try await render(bare) })
    results["with", default: []].append(try await time(count) { try await render(full) })
    for (definition, (router, page)) in zip(sections, zip(alone, warm)) {
        results[definition.id, default: []].append(try await time(count) { await sectionsOf(page) })
        results["fresh " + definition.id, default: []].append(try await time(100, rounds: 5) { await freshPage(router) })
    }
    results["fresh", default: []].append(try await time(100, rounds: 5) { await freshPage(full) })
}
let medians = results.mapValues { $0.sorted()[$0.count / 2] }
func median(_ key: String) -> Double { medians[key] ?? 0 }
func micro(_ nanoseconds: Double) -> String { String(format: "%8.1f µs", nanoseconds / 1000) }
let before = median("before"), with = median("with")
print("product page, release build, medians of 5 passes (each the median of 9 rounds)")
print("  opened through the router, before the plugins (Product alone)   \(micro(before))")
print("  opened through the router, with its 3 plugins                   \(micro(with))   ratio \(String(format: "%.2f", with / before))x")
print("  per plugin: its section on a page already shown, and a page's whole life (make, attach, first section, detach)")
for definition in sections {
    print(
        "    \(definition.id.padding(toLength: 20, withPad: " ", startingAt: 0)) \(micro(median(definition.id)))   \(micro(median("fresh " + definition.id)))")
}
let allThree = sections.map { median($0.id) }.reduce(0, +)
print("    all three            \(micro(allThree))   \(micro(median("fresh")))")

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
