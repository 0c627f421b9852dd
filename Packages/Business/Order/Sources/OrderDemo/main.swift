// Runs the Order component alone, with the fakes the user and cart interfaces ship.
import CartInterface
import CartInterfaceTestSupport
import Models
import Order
import Router
import ScreenKit
import Storage
import UserInterface
import UserInterfaceTestSupport

let router = Router()
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
try router.services.register((any AccountService).self, owner: "demo stand-in", instance: StubAccountService(signedIn: StubAccountService.previewUser))
try router.services.register(
    (any CartService).self, owner: "demo stand-in",
    instance: InMemoryCartService(lines: [CartLine(productID: 1, name: "Mug", unitPrice: Money(cents: 500), quantity: 2)]))
try OrderModule(storage: Storage()).register(in: ModuleContext(router: router))

let arguments = CommandLine.arguments.dropFirst()
let urls = arguments.isEmpty ? ["shop://order/list", "shop://order/checkout", "shop://order/list", "shop://order/1"] : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
