public import ProductInterface
public import Router
public import ScreenKit

/// A stand-in product page for the demos and tests of ``ProductSections`` plugins: a router whose plugin
/// registry holds the given plugins, declared in the given order, and the catalog's products.
public struct ProductPageHarness: Sendable {
    /// The router the plugins register on and resolve services from.
    public let router: Router
    /// The products pages are shown for.
    public let catalog: InMemoryProductCatalog

    /// A harness for `plugins`; `declarations` default to each plugin enabled, in the order given, with no settings.
    public init(router: Router = Router(), catalog: InMemoryProductCatalog = InMemoryProductCatalog()) {
        self.router = router
        self.catalog = catalog
    }

    /// Installs `plugins` and `declarations` (by default each plugin, in the order given, with no settings)
    /// and registers their app-wide parts.
    public func install(_ plugins: [any PluginDefinition.Type], declarations: [PluginDeclaration]? = nil) throws {
        let declared =
            declarations ?? plugins.map { PluginDeclaration(point: ProductSections.id, plugin: $0.id, source: "harness") }
        try router.plugins.install(points: [ProductSections.self], definitions: plugins, declarations: declared)
        for module in router.plugins.modules() { try module.register(in: ModuleContext(router: router)) }
    }

    /// A new page (plugin container) of the product page.
    public func page() -> PluginContainer<ProductSections> {
        router.plugins.container(ProductSections.self, router: router)
    }

    /// `page` rendered for product `productID` as the product page would: the product, then each section.
    public func render(_ page: PluginContainer<ProductSections>, productID: Int) async throws -> Screen {
        guard let product = try await catalog.product(id: productID) else { return Screen(title: "No product \(productID)") }
        var screen = Screen(title: product.name)
        screen.text(product.blurb)
        await page.appear()
        for section in await page.contributions({ try await $0.section(for: product) }) {
            screen.heading(section.heading)
            screen.elements += section.elements
        }
        return screen
    }
}
