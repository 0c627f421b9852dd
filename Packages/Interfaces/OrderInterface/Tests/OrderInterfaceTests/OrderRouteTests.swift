import Testing
import OrderInterface

@Suite struct OrderRouteTests {
    @Test func routesBuildTheirURLs() throws {
        #expect(try OrderRoute.List().url() == "shop://order/list")
        #expect(try OrderRoute.Detail(id: 12).url() == "shop://order/12")
        #expect(try OrderRoute.Checkout().url() == "shop://order/checkout")
    }

    @Test func detailNeedsANumber() throws {
        #expect(try OrderRoute.Detail(parameters: ["id": "12"]).id == 12)
        #expect(throws: (any Error).self) { try OrderRoute.Detail(parameters: ["id": "latest"]) }
    }
}
