// Runs the recommendations plugin alone, in a stand-in product page over a few made-up orders.
import Foundation
import Models
import OrderInterface
import OrderInterfaceTestSupport
import ProductInterface
import ProductInterfaceTestSupport
import Recommendations
import Router
import ScreenKit

let catalog = InMemoryProductCatalog()
let harness = ProductPageHarness(catalog: catalog)
let line = { (id: Int, quantity: Int) in OrderLine(productID: id, name: "#\(id)", quantity: quantity, unitPrice: Money(cents: 100)) }
let history = InMemoryOrderHistory([
    OrderSummary(id: 1, userID: "ann", lines: [line(1, 1), line(3, 2)], total: Money(cents: 300), placedAt: Date()),
    OrderSummary(id: 2, userID: "bo", lines: [line(1, 1), line(2, 1)], total: Money(cents: 200), placedAt: Date()),
])
try harness.router.services.register((any OrderHistory).self, owner: "demo", instance: history)
try harness.router.services.register((any ProductCatalog).self, owner: "demo", instance: catalog)
try harness.install([RecommendationsPlugin.self])
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
for id in arguments.isEmpty ? [1, 2] : arguments {
    print(TextRenderer(showsURLs: true).render(try await harness.render(harness.page(), productID: id)))
    print()
}
