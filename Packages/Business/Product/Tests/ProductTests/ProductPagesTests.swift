import CartInterface
import Models
import Product
import ProductInterface
import Router
import ScreenKit
import Synchronization
import Testing

/// What every page's plugin went through, in order.
private final class Journal: Sendable {
    let lines = Mutex<[String]>([])
    func note(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private protocol JournalService: Sendable { var journal: Journal { get } }
private struct JournalBox: JournalService { let journal: Journal }

/// A section plugin that notes its lifecycle and the cart changes its page forwards.
private final class Witness: ProductSectionPlugin {
    let journal: Journal
    let product = Mutex<Int>(0)
    init(_ journal: Journal) { self.journal = journal }
    func attach(_ context: PluginContext) throws {
        context.events.subscribe(self, to: CartChanged.self) { witness, event in witness.note("cart \(event.itemCount)") }
    }
    func containerWillAppear() async { note("appear") }
    func containerDidDisappear() async { note("disappear") }
    func detach() { note("detach") }
    func note(_ what: String) { journal.note("\(product.withLock { $0 }) \(what)") }
    func section(for product: ProductSummary) async throws -> ProductSection? {
        self.product.withLock { $0 = product.id }
        return ProductSection(heading: "Witness", elements: [.text("for \(product.name)")])
    }
}

private enum WitnessPlugin: PluginDefinition {
    typealias Point = ProductSections
    static let id = "witness"
    static func make(_ context: PluginContext) throws -> any ProductSectionPlugin {
        Witness(try context.services.resolve((any JournalService).self).journal)
    }
}

private func boot(_ journal: Journal, module: ProductModule = ProductModule()) throws -> Router {
    let router = Router()
    try router.services.register((any JournalService).self, owner: "test", instance: JournalBox(journal: journal))
    try router.plugins.install(
        points: [ProductSections.self], definitions: [WitnessPlugin.self],
        declarations: [PluginDeclaration(point: ProductSections.id, plugin: "witness", source: "test")])
    try module.register(in: ModuleContext(router: router))
    return router
}

@Test func thePageShowsItsPluginsSectionsAfterTheProduct() async throws {
    let router = try boot(Journal())
    let screen = try await router.open("shop://product/1", as: Screen.self)
    let text = TextRenderer().render(screen)
    #expect(text.hasSuffix("## Witness\nfor Coffee Mug"))
    #expect(screen.links.first?.url == "shop://cart/add/1", "the product's own links come first, so their numbers never move")
}

@Test func aPageLivesWhileShownAgainAndHearsForwardedCartChanges() async throws {
    let journal = Journal()
    let router = try boot(journal)
    _ = try await router.open("shop://product/1", as: Screen.self)
    _ = try await router.open("shop://product/2", as: Screen.self)
    router.events.publish(CartChanged(itemCount: 3))
    _ = try await router.open("shop://product/1", as: Screen.self)
    #expect(journal.all == ["0 appear", "1 disappear", "0 appear", "1 cart 3", "2 cart 3", "2 disappear", "1 appear"])
}

@Test func theLeastRecentlyShownPageBeyondTheCapacityIsDetached() async throws {
    let journal = Journal()
    let pages = ProductPages(router: try boot(journal))
    for id in 1...(ProductPages.capacity + 1) {
        _ = await pages.sections(for: ProductSummary(id: id, name: "#\(id)", price: Money(cents: 100), blurb: ""))
    }
    #expect(journal.all.filter { $0.hasSuffix("detach") } == ["1 detach"])
}

@Test func aMemoryWarningDetachesEveryPageButTheOneShownAndSearchStillWorks() async throws {
    let journal = Journal()
    let module = ProductModule()
    let router = try boot(journal, module: module)
    let context = ModuleContext(router: router)
    try await module.handle(.launch(.plain), in: context)
    for id in 1...3 { _ = try await router.open("shop://product/\(id)", as: Screen.self) }
    #expect(TextRenderer().render(try await router.open("shop://product/search?q=MUG", as: Screen.self)).contains("Travel Mug"), "from the index")
    try await module.handle(.memoryWarning, in: context)
    #expect(journal.all.filter { $0.hasSuffix("detach") } == ["1 detach", "2 detach"], "the page shown stays")
    let found = try await router.open("shop://product/search?q=mug", as: Screen.self)
    #expect(found.links.map(\.title) == ["Coffee Mug — $12.50", "Travel Mug — $22.00", "All products"], "without the index, from the catalog")
}
