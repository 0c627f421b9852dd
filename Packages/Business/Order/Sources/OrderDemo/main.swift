// Runs the Order component alone, with stand-ins for the signed-in user and the cart.
import CartInterface
import Models
import Order
import Router
import ScreenKit
import Storage
import UserInterface

struct StandInAccounts: AccountService {
    func currentUser() -> UserAccount? { UserAccount(id: "demo", displayName: "Demo User") }
}

struct StandInCart: CartService {
    func lines() -> [CartLine] { [CartLine(productID: 1, name: "Stand-in Mug", unitPrice: Money(cents: 500), quantity: 2)] }
    func add(productID: Int, quantity: Int) -> CartLine { lines()[0] }
    func remove(productID: Int) -> Bool { false }
    func clear() {}
}

let router = Router()
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
try router.services.register((any AccountService).self, owner: "demo stand-in", instance: StandInAccounts())
try router.services.register((any CartService).self, owner: "demo stand-in", instance: StandInCart())
try OrderModule(storage: Storage()).register(in: ModuleContext(router: router))

let arguments = CommandLine.arguments.dropFirst()
let urls = arguments.isEmpty ? ["shop://order/list", "shop://order/checkout", "shop://order/list", "shop://order/1"] : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
