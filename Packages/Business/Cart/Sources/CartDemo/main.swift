// Runs the Cart component alone, with the catalog's preview fake and an in-memory database.
import Cart
import ProductInterface
import ProductInterfaceTestSupport
import Router
import ScreenKit
import Storage

let router = Router()
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
try router.services.register((any ProductCatalog).self, owner: "demo stand-in", instance: InMemoryProductCatalog())
try CartModule(storage: Storage()).register(in: ModuleContext(router: router))

let arguments = CommandLine.arguments.dropFirst()
let urls = arguments.isEmpty ? ["shop://cart", "shop://cart/add/1?quantity=2", "shop://cart/add/2", "shop://cart/remove/1"] : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
