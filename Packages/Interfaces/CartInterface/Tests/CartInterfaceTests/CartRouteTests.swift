import Testing
import CartInterface
import Models

@Suite struct CartRouteTests {
    @Test func routesBuildTheirURLs() throws {
        #expect(try CartRoute.Show().url() == "shop://cart")
        #expect(try CartRoute.Add(productID: 3).url() == "shop://cart/add/3")
        #expect(try CartRoute.Add(productID: 3, quantity: 2).url() == "shop://cart/add/3?quantity=2")
        #expect(try CartRoute.Remove(productID: 3).url() == "shop://cart/remove/3")
        #expect(try CartRoute.Clear().url() == "shop://cart/clear")
    }

    @Test func addParsesItsOptionalQuantity() throws {
        #expect(try CartRoute.Add(parameters: ["productID": "3"]) == CartRoute.Add(productID: 3))
        #expect(try CartRoute.Add(parameters: ["productID": "3", "quantity": "5"]).quantity == 5)
    }

    @Test func lineTotalIsUnitPriceTimesQuantity() {
        #expect(CartLine(productID: 1, name: "Mug", unitPrice: Money(cents: 250), quantity: 3).total == Money(cents: 750))
    }
}
