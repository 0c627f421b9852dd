// Runs the User component alone, with an in-memory database and a stand-in for the order list.
import Router
import ScreenKit
import Session
import Storage
import User

let router = Router()
try router.register("shop://order/list", owner: "demo stand-in") { _ in
    Screen(title: "Orders (stand-in)", elements: [.text("The Order component would show the orders here.")])
}
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
try UserModule(session: Session(storage: Storage())).register(in: ModuleContext(router: router))

let arguments = CommandLine.arguments.dropFirst()
let urls =
    arguments.isEmpty
    ? ["shop://user/profile", "shop://user/login?next=shop://order/list", "shop://user/login/alice?next=shop://order/list", "shop://user/logout"]
    : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
