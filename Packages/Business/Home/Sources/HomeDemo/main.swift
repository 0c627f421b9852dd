// Runs the Home component alone: the layout renders with whatever other components are absent left out.
import Foundation
import Home
import Router
import ScreenKit

let router = Router()
let settings = ProcessInfo.processInfo.environment.filter { $0.key == HomeModule.layoutSetting }
try HomeModule().register(in: ModuleContext(router: router, settings: settings))
print(TextRenderer(showsURLs: true).render(try await router.open("shop://home", as: Screen.self)))
