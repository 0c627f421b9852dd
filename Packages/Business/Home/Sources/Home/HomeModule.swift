import Foundation
import CartInterface
import HomeInterface
import Models
import ProductInterface
public import Router
import ScreenKit
import Synchronization
import UserInterface

/// The Home component: owns `shop://home`, built from the layout config with what other
/// components provide (catalog, cart, account) when they are present.
public struct HomeModule: AppModule {
    public let name = "home"
    /// The setting (environment variable in the App) naming a layout file that replaces the bundled one.
    public static let layoutSetting = "SHOP_HOME_LAYOUT"
    private let layout: HomeLayout?
    private let promotions = Promotions()

    /// A module with `layout`, or the one named by the ``layoutSetting`` setting, else the app's own
    /// (``HomeSettings/layoutJSON``), else the bundled one.
    public init(layout: HomeLayout? = nil) {
        self.layout = layout
    }

    public func register(in context: ModuleContext) throws {
        let layout =
            try self.layout ?? context.settings[Self.layoutSetting].map(HomeLayout.load(path:))
            ?? context.settings[HomeSettings.layoutJSON].map { try HomeLayout.decode(Data($0.utf8), source: "the app's home layout") }
            ?? HomeLayout.bundled()
        let services = context.services
        let promotions = self.promotions
        context.events.subscribe(promotions, to: HomePromotion.self) { promotions, promotion in promotions.add(promotion) }
        try context.router.register(HomeRoute.Home.self, owner: name, options: RouteOptions(isPublic: true)) { _, _ in
            try await HomeScreen(layout: layout, services: services, promotions: promotions.all).render()
        }
    }
}

/// Renders the layout with live data; a section whose provider is missing is left out.
struct HomeScreen {
    let layout: HomeLayout
    let services: ServiceRegistry
    var promotions: [HomePromotion] = []

    func render() async throws -> Screen {
        var screen = Screen(title: layout.title, refreshURL: try HomeRoute.Home().url())
        for promotion in promotions { screen.link(promotion.title, promotion.url) }
        for section in layout.sections {
            switch section {
            case .greeting:
                guard let accounts = try? services.resolve((any AccountService).self) else { continue }
                // One link either way, so the numbers of the links below never shift with signing in.
                if let user = try await accounts.currentUser() {
                    screen.text("Welcome back, \(user.displayName).")
                    screen.link("Your account", try UserRoute.Profile().url())
                } else {
                    screen.text("Welcome! Sign in to see your orders.")
                    screen.link("Sign in", try UserRoute.Login().url())
                }
            case .banner(let text):
                screen.text("* \(text) *")
            case .featured(let title, let ids):
                guard let catalog = try? services.resolve((any ProductCatalog).self) else { continue }
                screen.heading(title)
                for id in ids {
                    guard let product = try await catalog.product(id: id) else { continue }
                    screen.link("\(product.name) — \(product.price)", try ProductRoute.Detail(id: id).url())
                }
            case .cart:
                guard let cart = try? services.resolve((any CartService).self) else { continue }
                let lines = try await cart.lines()
                let units = lines.reduce(0) { $0 + $1.quantity }
                screen.heading("Cart")
                screen.link(
                    units == 0 ? "Your cart is empty" : "Cart: \(units) item\(units == 1 ? "" : "s"), \(lines.map(\.total).totalsDescription)",
                    try CartRoute.Show().url())
            case .links(let title, let links):
                screen.heading(title)
                for link in links { screen.link(link.title, link.url) }
            }
        }
        return screen
    }
}

/// The promotions announced since launch, newest first; one per URL (a second announcement replaces it).
final class Promotions: Sendable {
    private let list = Mutex<[HomePromotion]>([])

    func add(_ promotion: HomePromotion) {
        list.withLock { list in
            list.removeAll { $0.url == promotion.url }
            list.insert(promotion, at: 0)
        }
    }

    var all: [HomePromotion] { list.withLock { $0 } }
}
