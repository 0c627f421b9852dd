import Foundation
import CartInterface
import HomeInterface
import Logging
import Models
import ProductInterface
public import Router
import ScreenKit
import Synchronization
import UserInterface

/// The Home component: owns `shop://home`, built from the layout config with what other
/// components provide (catalog, cart, account) when they are present. It reads its layout again when
/// the App comes to the foreground, so a new layout (a file, or one the App fetched) shows without a restart.
public struct HomeModule: AppModule {
    public let name = "home"
    public let events: Set<LifecycleEvent.Kind> = [.foreground]
    /// The setting (environment variable in the App) naming a layout file that replaces the bundled one.
    public static let layoutSetting = "SHOP_HOME_LAYOUT"
    private let layout: HomeLayout?
    private let promotions = Promotions()
    private let current = CurrentLayout()
    private let logger = Logger(label: "home")

    /// A module with `layout`, or the one named by the ``layoutSetting`` setting, else the one the App serves
    /// (``RemoteDocuments``, ``HomeSettings/remoteLayout``), else the app's own (``HomeSettings/layoutJSON``), else the bundled one.
    public init(layout: HomeLayout? = nil) {
        self.layout = layout
    }

    public func register(in context: ModuleContext) throws {
        try resolve(context)
        let services = context.services
        let promotions = self.promotions
        let current = self.current
        context.events.subscribe(promotions, to: HomePromotion.self) { promotions, promotion in promotions.add(promotion) }
        try context.router.register(HomeRoute.Home.self, owner: name, options: RouteOptions(isPublic: true)) { _, _ in
            try await HomeScreen(layout: current.layout, services: services, promotions: promotions.all).render()
        }
    }

    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        guard case .foreground = event else { return }
        do {
            let fresh = try resolve(context)
            if fresh != current.layout { logger.info("home layout refreshed", metadata: ["title": "\(fresh.title)"]) }
        } catch {
            // The layout shown stays: a refresh that fails never takes the home screen away.
            logger.warning("the home layout was not refreshed", metadata: ["error": "\(error)"])
        }
    }

    /// The layout as its sources say now, made current; its skipped sections are logged when it is new
    /// (not again at each foreground).
    @discardableResult
    private func resolve(_ context: ModuleContext) throws -> HomeLayout {
        let (layout, source) = try load(context)
        if layout != current.layout {
            for skipped in layout.skipped {
                logger.warning("home layout section skipped", metadata: ["source": "\(source)", "section": "\(skipped)"])
            }
        }
        current.set(layout)
        return layout
    }

    private func load(_ context: ModuleContext) throws -> (HomeLayout, String) {
        if let layout { return (layout, "the layout given") }
        if let path = context.settings[Self.layoutSetting] { return (try HomeLayout.load(path: path), path) }
        if let served = (try? context.services.optional((any RemoteDocuments).self))?.current(HomeSettings.remoteLayout) {
            do {
                return (try HomeLayout.decode(served.json, source: served.source), served.source)
            } catch {
                // A layout from a server that this version cannot read falls back to the one it ships with.
                logger.warning("the served home layout is not usable; the app's own is shown", metadata: ["error": "\(error)"])
            }
        }
        if let json = context.settings[HomeSettings.layoutJSON] {
            return (try HomeLayout.decode(Data(json.utf8), source: "the app's home layout"), "the app's home layout")
        }
        return (try HomeLayout.bundled(), "the bundled home layout")
    }
}

/// The layout the home screen shows, replaced when it is refreshed.
final class CurrentLayout: Sendable {
    private let value = Mutex(HomeLayout(title: "Home", sections: []))
    var layout: HomeLayout { value.withLock { $0 } }
    func set(_ layout: HomeLayout) { value.withLock { $0 = layout } }
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
                guard let accounts = try? services.optional((any AccountService).self) else { continue }
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
                guard let catalog = try? services.optional((any ProductCatalog).self) else { continue }
                screen.heading(title)
                for id in ids {
                    guard let product = try await catalog.product(id: id) else { continue }
                    screen.link("\(product.name) — \(product.price)", try ProductRoute.Detail(id: id).url())
                }
            case .cart:
                guard let cart = try? services.optional((any CartService).self) else { continue }
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
