import Testing
import ProductInterface
import Router

@Suite struct ProductRouteTests {
    @Test func routesBuildTheURLsTheirPatternsMatch() throws {
        #expect(try ProductRoute.List().url() == "shop://product/list")
        #expect(try ProductRoute.Detail(id: 7).url() == "shop://product/7")
        #expect(try ProductRoute.Search(q: "red mug").url() == "shop://product/search?q=red%20mug")
        #expect(try ProductRoute.Search(q: nil).url() == "shop://product/search")
    }

    @Test func detailParsesBackAndRefusesANonNumber() throws {
        #expect(try ProductRoute.Detail(parameters: ["id": "42"]) == ProductRoute.Detail(id: 42))
        #expect(throws: RouterError.self) { try ProductRoute.Detail(parameters: ["id": "mug"]) }
    }

    @Test func listAndDetailDoNotCollide() throws {
        let router = Router()
        try router.register(ProductRoute.List.self, owner: "product") { _, _ in "list" }
        try router.register(ProductRoute.Detail.self, owner: "product") { route, _ in route.id }
        try router.register(ProductRoute.Search.self, owner: "product") { _, _ in "search" }
        #expect(try router.match("shop://product/list")?.pattern == ProductRoute.List.pattern)
        #expect(try router.match("shop://product/3")?.pattern == ProductRoute.Detail.pattern)
    }
}
