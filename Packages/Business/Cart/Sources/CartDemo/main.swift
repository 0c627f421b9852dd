// Runs the Cart component alone, with a stand-in catalog and an in-memory database.
import Cart
import Models
import ProductInterface
import Router
import ScreenKit
import Storage

struct StandInCatalog: ProductCatalog {
    let products = [
        ProductSummary(id: 1, name: "Stand-in Mug", price: Money(cents: 500), blurb: "demo"),
        ProductSummary(id: 2, name: "Stand-in Pot", price: Money(cents: 900), blurb: "demo"),
    ]
    func allProducts() -> [ProductSummary] { products }
    func product(id: Int) -> ProductSummary? { products.first { $0.id == id } }
    func search(_ text: String) -> [ProductSummary] { [] }
}

let router = Router()
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
try router.services.register((any ProductCatalog).self, owner: "demo stand-in", instance: StandInCatalog())
try CartModule(storage: Storage()).register(in: ModuleContext(router: router))

let arguments = CommandLine.arguments.dropFirst()
let urls = arguments.isEmpty ? ["shop://cart", "shop://cart/add/1?quantity=2", "shop://cart/add/2", "shop://cart/remove/1"] : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
