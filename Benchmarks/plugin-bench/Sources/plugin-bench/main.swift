// A feature's page with and without its plugins, in one run: the ratio, each plugin's cost, and the
// allocations a container's set-up makes per plugin (`--allocations`, with the interposer preloaded). The
// page and its plugins are the benchmark's own (Fixture.swift): what it measures is the framework's.
import Foundation
import Router
import ScreenKit
import Storage

let sections: [any PluginDefinition.Type] = [StoredNotesPlugin.self, RelatedItemsPlugin.self, DeliveryEstimatePlugin.self]

/// A router with the item module, the services the plugins read, and `plugins` installed.
func app(_ plugins: [any PluginDefinition.Type]) async throws -> Router {
    let router = Router()
    let storage = try Storage()
    try router.services.register(Storage.self, owner: "bench", instance: storage)
    try StoredNotesPlugin.seed(storage, item: 1, count: 5)
    let baskets = (1...50).map { [1, 2 + $0 % 5] }
    try router.services.register((any PurchaseHistory).self, owner: "bench", instance: InMemoryPurchaseHistory(recorded: baskets))
    let declarations = plugins.map { PluginDeclaration(point: ItemSections.id, plugin: $0.id, source: "bench") }
    try router.plugins.install(points: [ItemSections.self], definitions: plugins, declarations: declarations)
    let modules: [any AppModule] = [ItemModule()] + router.plugins.modules()
    let manager = try ModuleManager(modules: modules, context: ModuleContext(router: router))
    manager.registerAll()
    // A module that fails to register is disabled, not thrown: the benchmark would time an error page.
    if let failed = manager.statuses.first(where: { $0.state != .running }) { fatalError("the bench module \(failed.name) did not register: \(failed.state)") }
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
    let page = router.plugins.container(ItemSections.self, router: router)
    let made = await page.contributions { try await $0.section(for: item) }
    page.detach()
    return made.count
}

/// The sections of a page already made (what showing it again costs its plugins).
func sectionsOf(_ page: PluginContainer<ItemSections>) async -> Int {
    await page.contributions { try await $0.section(for: item) }.count
}

func render(_ router: Router) async throws -> Int {
    try await router.open("bench://item/1", as: Screen.self).elements.count
}

let item = Item(id: 1, name: "Item 1", priceCents: 1250)

if CommandLine.arguments.contains("--allocations") {
    exit(try Allocations.report())
}

let bare = try await app([])
let full = try await app(sections)
let alone = try await sections.asyncMap { try await app([$0]) }
let warm = alone.map { $0.plugins.container(ItemSections.self, router: $0) }
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
print("an item page (the benchmark's own feature), release build, medians of 5 passes (each the median of 9 rounds)")
print("  opened through the router, before the plugins (the module alone) \(micro(before))")
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
