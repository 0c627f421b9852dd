import CartInterface
public import ProductInterface
public import Router
import Synchronization

/// The product pages alive: one plugin container of ``ProductSections`` per product shown, kept while
/// the page may be shown again (the most recent few), so its plugins keep their state and subscriptions.
public final class ProductPages: Sendable {
    /// How many pages stay alive; the least recently shown one beyond it is detached.
    public static let capacity = 8

    private let router: Router
    private let state = Mutex<(pages: [(id: Int, page: PluginContainer<ProductSections>)], shown: Int?)>(([], nil))

    /// Pages whose plugins come from `router`'s plugin registry.
    public init(router: Router) {
        self.router = router
    }

    /// The page of `productID`, made on first use.
    public func page(for productID: Int) -> PluginContainer<ProductSections> {
        if let known = state.withLock({ Self.touch(productID, in: &$0.pages) }) { return known }
        // Made outside the lock: making a page runs the plugins' factories and attach, which are not ours.
        let made = router.plugins.container(ProductSections.self, router: router)
        let (page, evicted) = state.withLock { state -> (PluginContainer<ProductSections>, PluginContainer<ProductSections>?) in
            if let raced = Self.touch(productID, in: &state.pages) { return (raced, made) }
            state.pages.append((productID, made))
            return (made, state.pages.count > Self.capacity ? state.pages.removeFirst().page : nil)
        }
        // A shipping estimate depends on the cart: the host forwards cart changes to its pages on purpose.
        if page === made { page.forward(CartChanged.self, from: router.events) }
        evicted?.detach()
        return page
    }

    /// The page of `productID` moved to the most recent place, if it is alive.
    private static func touch(_ productID: Int, in pages: inout [(id: Int, page: PluginContainer<ProductSections>)]) -> PluginContainer<ProductSections>? {
        guard let index = pages.firstIndex(where: { $0.id == productID }) else { return nil }
        let entry = pages.remove(at: index)
        pages.append(entry)
        return entry.page
    }

    /// Detaches every page but the one shown (their plugins let go of their state); returns how many.
    @discardableResult
    public func trim() -> Int {
        let dropped = state.withLock { state -> [PluginContainer<ProductSections>] in
            let (kept, dropped) = (state.pages.filter { $0.id == state.shown }, state.pages.filter { $0.id != state.shown })
            state.pages = kept
            return dropped.map(\.page)
        }
        for page in dropped { page.detach() }
        return dropped.count
    }

    /// The sections of `product`'s page, after telling the page shown before that it disappeared.
    public func sections(for product: ProductSummary) async -> [ProductSection] {
        let page = page(for: product.id)
        let previous = state.withLock { state -> PluginContainer<ProductSections>? in
            defer { state.shown = product.id }
            guard let shown = state.shown, shown != product.id else { return nil }
            return state.pages.first { $0.id == shown }?.page
        }
        await previous?.disappear()
        await page.appear()
        return await page.contributions { try await $0.section(for: product) }
    }
}
