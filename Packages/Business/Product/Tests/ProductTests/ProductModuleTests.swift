import Models
import Product
import ProductInterface
import Router
import ScreenKit
import Testing

@Suite struct ProductModuleTests {
    private func boot(_ catalog: any ProductCatalog = BuiltInCatalog()) throws -> Router {
        let router = Router()
        try ProductModule(catalog: catalog).register(in: ModuleContext(router: router))
        return router
    }

    @Test func registersTheCatalogServiceAndItsRoutes() async throws {
        let router = try boot()
        #expect(try await router.services.resolve((any ProductCatalog).self).allProducts().count == 8)
        #expect(Set(router.routes.map(\.owner)) == ["product"])
        #expect(router.routes.map(\.pattern) == [ProductRoute.Detail.pattern.text, ProductRoute.List.pattern.text, ProductRoute.Search.pattern.text])
    }

    @Test func detailLinksToAddToCart() async throws {
        let router = try boot()
        let screen = try await router.open(try ProductRoute.Detail(id: 1).url(), as: Screen.self)
        #expect(screen.title == "Coffee Mug")
        #expect(screen.elements.contains(.text("Price: $12.50")))
        #expect(screen.links.first?.url == "shop://cart/add/1")
    }

    @Test func unknownProductIsAScreenNotAnError() async throws {
        let screen = try await boot().open("shop://product/999", as: Screen.self)
        #expect(screen.title == "Product not found")
    }

    @Test func listShowsEveryProductAndSearchFilters() async throws {
        let mug = ProductSummary(id: 1, name: "Mug", price: Money(cents: 100), blurb: "ceramic")
        let pot = ProductSummary(id: 2, name: "Pot", price: Money(cents: 200), blurb: "for tea")
        let router = try boot(BuiltInCatalog(products: [mug, pot]))
        let list = try await router.open("shop://product/list", as: Screen.self)
        #expect(list.links.map(\.title).prefix(2) == ["Mug — $1.00", "Pot — $2.00"])
        let search = try await router.open("shop://product/search?q=TEA", as: Screen.self)
        #expect(search.links.map(\.url) == ["shop://product/2", "shop://product/list"])
        let empty = try await router.open("shop://product/search", as: Screen.self)
        #expect(empty.links.map(\.url) == ["shop://product/list"])
    }
}
