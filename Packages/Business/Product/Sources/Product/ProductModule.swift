public import Router
import CartInterface
public import ProductInterface
import Foundation
import Logging
import Synchronization
import ScreenKit

/// The Product component: provides the catalog service and owns the `shop://product/...` routes. After
/// the first screen it builds its search index (search works before, from the catalog); a memory warning
/// drops the index and the product pages kept alive, both rebuilt when next needed. Links from outside in
/// the shape older apps shared (`shop://item/7`) are rewritten to today's product page before routing.
public struct ProductModule: AppModule {
    public let name = "product"
    /// The catalog loads first: other components read it while they register.
    public let priority = 10
    public let events: Set<LifecycleEvent.Kind> = [.launch, .memoryWarning, .openURL]
    public let launchTiming = LaunchTiming.afterFirstScreen
    private let catalog: any ProductCatalog
    private let caches = Caches()
    private let logger = Logger(label: "product")

    /// A module serving `catalog` (the built-in one by default).
    public init(catalog: any ProductCatalog = BuiltInCatalog()) {
        self.catalog = catalog
    }

    public func register(in context: ModuleContext) throws {
        let catalog = self.catalog
        try context.services.register((any ProductCatalog).self, owner: name, instance: catalog)
        caches.pages.set(ProductPages(router: context.router))
        let screens = ProductScreens(catalog: catalog, caches: caches)
        // Product pages are what shared links and campaigns point at: public, for signed links from outside.
        let open = RouteOptions(isPublic: true)
        try context.router.register(ProductRoute.List.self, owner: name, options: open) { _, _ in try await screens.list() }
        try context.router.register(ProductRoute.Detail.self, owner: name, options: open) { route, _ in try await screens.detail(id: route.id) }
        try context.router.register(ProductRoute.Search.self, owner: name, options: open) { route, _ in try await screens.search(route.q ?? "") }
    }

    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        switch event {
        case .launch:
            caches.index.set(SearchIndex(try await catalog.allProducts()))
        case .openURL(let incoming):
            if let legacy = try? RouteURL(incoming.url), legacy.host == "item", legacy.segments.count == 1, let id = Int(legacy.segments[0]) {
                incoming.rewrite(to: try ProductRoute.Detail(id: id).url(), by: name)
            }
        case .memoryWarning:
            let pages = caches.pages.value?.trim() ?? 0
            let hadIndex = caches.index.value != nil
            caches.index.set(nil)
            logger.info("memory warning: caches dropped", metadata: ["product-pages": "\(pages)", "search-index": "\(hadIndex ? "dropped" : "none")"])
        default:
            break
        }
    }
}

/// What the Product component keeps to be quick, and drops when memory is short.
final class Caches: Sendable {
    /// The product pages alive.
    let pages = Cached<ProductPages>()
    /// The search index, once built.
    let index = Cached<SearchIndex>()
}

/// A value that may be there, set and dropped from any task.
final class Cached<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    var value: Value? { storage.withLock { $0 } }
    func set(_ value: Value?) { storage.withLock { $0 = value } }
}

/// Every product's name and blurb folded for search: built once, so a search reads no catalog.
struct SearchIndex: Sendable {
    private let entries: [(text: String, product: ProductSummary)]

    init(_ products: [ProductSummary]) {
        entries = products.map { ("\($0.name) \($0.blurb)".folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), $0) }
    }

    func search(_ query: String) -> [ProductSummary] {
        let folded = query.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return entries.filter { $0.text.contains(folded) }.map(\.product)
    }
}

/// The screens of the Product component.
struct ProductScreens: Sendable {
    let catalog: any ProductCatalog
    /// The pages' plugin containers (``ProductSections``) and the search index.
    let caches: Caches

    func list() async throws -> Screen {
        var screen = Screen(title: "All products", refreshURL: try ProductRoute.List().url())
        for product in try await catalog.allProducts() {
            screen.link("\(product.name) — \(product.price)", try ProductRoute.Detail(id: product.id).url())
        }
        screen.divider()
        screen.link("View cart", try CartRoute.Show().url())
        return screen
    }

    func detail(id: Int) async throws -> Screen {
        guard let product = try await catalog.product(id: id) else {
            var screen = Screen(title: "Product not found")
            screen.text("There is no product number \(id).")
            screen.link("All products", try ProductRoute.List().url())
            return screen
        }
        var screen = Screen(title: product.name, refreshURL: try ProductRoute.Detail(id: product.id).url())
        screen.text(product.blurb)
        screen.text("Price: \(product.price)")
        screen.link("Add to cart", try CartRoute.Add(productID: product.id).url())
        screen.link("Add 2 to cart", try CartRoute.Add(productID: product.id, quantity: 2).url())
        screen.link("View cart", try CartRoute.Show().url())
        screen.link("All products", try ProductRoute.List().url())
        for section in await caches.pages.value?.sections(for: product) ?? [] {
            screen.heading(section.heading)
            screen.elements += section.elements
        }
        return screen
    }

    func search(_ text: String) async throws -> Screen {
        let query = text.trimmingCharacters(in: .whitespaces)
        var screen = Screen(title: query.isEmpty ? "Search" : "Search: \(query)")
        var found: [ProductSummary] = []
        if !query.isEmpty {
            if let index = caches.index.value { found = index.search(query) } else { found = try await catalog.search(query) }
        }
        if found.isEmpty {
            screen.text(query.isEmpty ? "Type something to search for, like shop://product/search?q=mug" : "Nothing matches '\(query)'.")
        }
        for product in found {
            screen.link("\(product.name) — \(product.price)", try ProductRoute.Detail(id: product.id).url())
        }
        screen.link("All products", try ProductRoute.List().url())
        return screen
    }
}
