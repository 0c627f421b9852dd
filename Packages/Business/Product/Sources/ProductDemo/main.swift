// Runs the Product component alone: its own module, and printed screens instead of the App's shell.
import Product
import Router
import ScreenKit

let router = Router()
router.setFallback { request in Screen(title: "Not in this demo", elements: [.text("\(request.url) belongs to another component.")]) }
let manager = try ModuleManager(modules: [ProductModule()], context: ModuleContext(router: router))
manager.registerAll()
await manager.launch()
await manager.finishDeferredLaunches()

let arguments = CommandLine.arguments.dropFirst()
let urls = arguments.isEmpty ? ["shop://product/list", "shop://product/1", "shop://product/search?q=mug"] : Array(arguments)
for url in urls {
    print("> \(url)")
    print(TextRenderer(showsURLs: true).render(try await router.open(url, as: Screen.self)))
    print()
}
