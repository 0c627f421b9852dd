import Foundation
import Router
import ScreenKit
import Storage
import Synchronization

// The benchmark's own feature with an extension point, so it measures the framework whatever components a
// workspace has: a module that shows an item's page from a plugin container, and three plugins doing the
// kinds of work real ones do (a database read, a service query, a computation on their settings).

/// An item a page shows.
struct Item: Sendable {
    var id: Int
    var name: String
    var priceCents: Int
}

/// A section a plugin adds to an item's page.
struct ItemSection: Sendable {
    var heading: String
    var elements: [Screen.Element] = []
}

/// The item page's extension point.
enum ItemSections: ExtensionPoint {
    static let id: ExtensionPointID = "bench/item-sections"
    typealias Plugin = any ItemSectionPlugin
}

/// A plugin of the item page.
protocol ItemSectionPlugin: ContainerPlugin {
    func section(for item: Item) async throws -> ItemSection?
}

/// What was bought together: the service the related-items plugin queries.
protocol PurchaseHistory: Sendable {
    func baskets() -> [[Int]]
}

/// A purchase history held in memory.
struct InMemoryPurchaseHistory: PurchaseHistory {
    var recorded: [[Int]]
    func baskets() -> [[Int]] { recorded }
}

/// The item module: `bench://item/<int:id>` shows the item and its plugins' sections, one container per
/// item page, kept for the next showing (as a feature keeps its recent pages).
struct ItemModule: AppModule {
    let name = "item"
    static let pattern = "bench://item/<int:id>"

    func register(in context: ModuleContext) throws {
        let router = context.router
        let pages = Mutex<[Int: PluginContainer<ItemSections>]>([:])
        try router.register(Self.pattern, owner: name) { request in
            let id = request.int("id") ?? 0
            let item = Item(id: id, name: "Item \(id)", priceCents: 1250 + id)
            let page =
                pages.withLock { $0[id] }
                ?? {
                    let made = router.plugins.container(ItemSections.self, router: router)
                    pages.withLock { $0[id] = made }
                    return made
                }()
            var screen = Screen(title: item.name)
            screen.text(String(format: "%.2f", Double(item.priceCents) / 100))
            for section in await page.contributions({ try await $0.section(for: item) }) {
                screen.heading(section.heading)
                screen.elements += section.elements
            }
            return screen
        }
    }
}

/// Notes kept in the database: the average rating and the latest `shown` of the item's notes.
enum StoredNotesPlugin: PluginDefinition {
    typealias Point = ItemSections
    static let id = "stored-notes"
    static let settings: PluginSchema = ["shown": .int]

    struct Note: Codable, Sendable {
        var item: Int
        var rating: Int
        var text: String
    }

    final class Section: ItemSectionPlugin {
        let notes: StoredCollection<Note>
        let shown: Int
        init(notes: StoredCollection<Note>, shown: Int) {
            self.notes = notes
            self.shown = shown
        }

        func section(for item: Item) async throws -> ItemSection? {
            let mine = try notes.values().filter { $0.item == item.id }
            guard !mine.isEmpty else { return nil }
            let average = Double(mine.map(\.rating).reduce(0, +)) / Double(mine.count)
            var section = ItemSection(heading: "Notes", elements: [.text(String(format: "%.1f of 5 (%d notes)", average, mine.count))])
            section.elements += mine.suffix(shown).reversed().map { .text("\($0.rating)/5 \($0.text)") }
            return section
        }
    }

    static func make(_ context: PluginContext) throws -> any ItemSectionPlugin {
        Section(notes: try context.services.resolve(Storage.self).collection("bench.notes"), shown: context.settings.int("shown", default: 3))
    }

    /// Stores `count` notes of `item`.
    static func seed(_ storage: Storage, item: Int, count: Int) throws {
        let notes = storage.collection("bench.notes", of: Note.self)
        for rating in 1...count { _ = try notes.append { _ in Note(item: item, rating: (rating - 1) % 5 + 1, text: "note \(rating)") } }
    }
}

/// Items bought together with this one, most often first.
enum RelatedItemsPlugin: PluginDefinition {
    typealias Point = ItemSections
    static let id = "related-items"
    static let settings: PluginSchema = ["limit": .int]

    final class Section: ItemSectionPlugin {
        let history: any PurchaseHistory
        let limit: Int
        init(history: any PurchaseHistory, limit: Int) {
            self.history = history
            self.limit = limit
        }

        func section(for item: Item) async throws -> ItemSection? {
            var together: [Int: Int] = [:]
            for basket in history.baskets() where basket.contains(item.id) {
                for other in basket where other != item.id { together[other, default: 0] += 1 }
            }
            let top = together.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(limit)
            guard !top.isEmpty else { return nil }
            return ItemSection(heading: "Bought together", elements: top.map { .link(Link(title: "Item \($0.key)", url: "bench://item/\($0.key)")) })
        }
    }

    static func make(_ context: PluginContext) throws -> any ItemSectionPlugin {
        Section(history: try context.services.resolve((any PurchaseHistory).self), limit: context.settings.int("limit", default: 3))
    }
}

/// When the item arrives and whether it ships free, from the plugin's settings.
enum DeliveryEstimatePlugin: PluginDefinition {
    typealias Point = ItemSections
    static let id = "delivery-estimate"
    static let settings: PluginSchema = ["days": .int, "carrier": .string, "free-over": .int]

    final class Section: ItemSectionPlugin {
        let days: Int
        let carrier: String
        let freeOverCents: Int
        init(days: Int, carrier: String, freeOverCents: Int) {
            self.days = days
            self.carrier = carrier
            self.freeOverCents = freeOverCents
        }

        func section(for item: Item) async throws -> ItemSection? {
            var section = ItemSection(heading: "Delivery", elements: [.text("Delivered in \(days) days by \(carrier).")])
            let missing = freeOverCents - item.priceCents
            section.elements.append(
                .text(
                    missing <= 0
                        ? "This ships free." : String(format: "Free delivery over %.2f: %.2f to go.", Double(freeOverCents) / 100, Double(missing) / 100)))
            return section
        }
    }

    static func make(_ context: PluginContext) throws -> any ItemSectionPlugin {
        Section(
            days: context.settings.int("days", default: 2), carrier: context.settings.string("carrier", default: "Parcel Post"),
            freeOverCents: context.settings.int("free-over", default: 25) * 100)
    }
}
