public import Router
import CartInterface
public import ProductInterface
import Foundation
import ScreenKit

/// The Product component: provides the catalog service and owns the `shop://product/...` routes.
public struct ProductModule: AppModule {
    public let name = "product"
    /// The catalog loads first: other components read it while they register.
    public let priority = 10
    private let catalog: any ProductCatalog

    /// A module serving `catalog` (the built-in one by default).
    public init(catalog: any ProductCatalog = BuiltInCatalog()) {
        self.catalog = catalog
    }

    public func register(in context: ModuleContext) throws {
        let catalog = self.catalog
        try context.services.register((any ProductCatalog).self, owner: name, instance: catalog)
        let screens = ProductScreens(catalog: catalog, pages: ProductPages(router: context.router))
        // Product pages are what shared links and campaigns point at: public, for signed links from outside.
        let open = RouteOptions(isPublic: true)
        try context.router.register(ProductRoute.List.self, owner: name, options: open) { _, _ in try await screens.list() }
        try context.router.register(ProductRoute.Detail.self, owner: name, options: open) { route, _ in try await screens.detail(id: route.id) }
        try context.router.register(ProductRoute.Search.self, owner: name, options: open) { route, _ in try await screens.search(route.q ?? "") }
    }
}

/// The screens of the Product component.
struct ProductScreens: Sendable {
    let catalog: any ProductCatalog
    /// The pages' plugin containers (``ProductSections``).
    let pages: ProductPages

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
        for section in await pages.sections(for: product) {
            screen.heading(section.heading)
            screen.elements += section.elements
        }
        return screen
    }

    func search(_ text: String) async throws -> Screen {
        let query = text.trimmingCharacters(in: .whitespaces)
        var screen = Screen(title: query.isEmpty ? "Search" : "Search: \(query)")
        let found = query.isEmpty ? [] : try await catalog.search(query)
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
