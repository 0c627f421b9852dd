import HomeInterface
import Models
public import ProductInterface
public import Router
import ScreenKit
import Synchronization

/// The seasonal campaign: a page of every product at its campaign price, and a banner on each product
/// page. Shipped at run time: the App downloads it from its plugin feed the first time a campaign link
/// is opened.
public enum CampaignPlugin: PluginDefinition {
    public typealias Point = ProductSections
    public static let id = "campaign"

    /// This release's campaign.
    static let campaign = Campaign(name: "winter", title: "Winter sale", percentOff: 10)

    /// Registers `shop://campaign/:name` (the products come from the app's ``ProductCatalog`` service) and
    /// announces the campaign to the home screen.
    public static func register(in context: ModuleContext) throws {
        let services = context.services
        try context.router.register(CampaignRoute.Page.self, owner: id, options: RouteOptions(isPublic: true)) { route, _ in
            guard route.name == campaign.name else { return CampaignScreens.over(route.name) }
            return try CampaignScreens.page(campaign, products: try await services.resolve((any ProductCatalog).self).allProducts())
        }
        context.events.publish(
            HomePromotion(title: "\(campaign.title): \(campaign.percentOff)% off everything", url: try CampaignRoute.Page(name: campaign.name).url()))
    }

    public static func make(_ context: PluginContext) throws -> any ProductSectionPlugin {
        CampaignBanner(campaign: campaign)
    }
}

/// The routes the campaign plugin owns.
public enum CampaignRoute {
    /// The campaign called `name`.
    public struct Page: Route, Equatable {
        public static let pattern: RoutePattern = "shop://campaign/:name"
        /// The campaign's name, like `winter`.
        public var name: String
        /// Creates the route.
        public init(name: String) { self.name = name }
    }
}

/// A campaign: its name in links, its title, its discount.
struct Campaign: Sendable {
    var name: String
    var title: String
    var percentOff: Int

    /// `price` with the campaign's discount, rounded down to the cent.
    func price(_ price: Money) -> Money {
        Money(cents: price.cents * (100 - percentOff) / 100, currency: price.currency)
    }
}

/// One product page's banner; it thanks the reader once they have reviewed the product on that page.
final class CampaignBanner: ProductSectionPlugin {
    private let campaign: Campaign
    private let reviewed = Mutex(false)

    init(campaign: Campaign) { self.campaign = campaign }

    func attach(_ context: PluginContext) throws {
        context.events.subscribe(self, to: ReviewAdded.self) { banner, _ in banner.reviewed.withLock { $0 = true } }
    }

    func section(for product: ProductSummary) async throws -> ProductSection? {
        var section = ProductSection(heading: campaign.title)
        section.elements.append(.text("\(campaign.percentOff)% off: \(campaign.price(product.price)) instead of \(product.price)."))
        if reviewed.withLock({ $0 }) { section.elements.append(.text("Thanks for your review: it enters you in the \(campaign.title.lowercased()) draw.")) }
        section.elements.append(.link(Link(title: "Everything in the \(campaign.title.lowercased())", url: try CampaignRoute.Page(name: campaign.name).url())))
        return section
    }
}

/// The campaign's screens.
enum CampaignScreens {
    static func page(_ campaign: Campaign, products: [ProductSummary]) throws -> Screen {
        var screen = Screen(title: campaign.title)
        screen.text("\(campaign.percentOff)% off everything, while the campaign lasts.")
        for product in products {
            screen.link("\(product.name) — \(campaign.price(product.price)) (was \(product.price))", try ProductRoute.Detail(id: product.id).url())
        }
        return screen
    }

    static func over(_ name: String) -> Screen {
        var screen = Screen(title: "Campaign over")
        screen.text("The '\(name)' campaign has ended.")
        screen.link("Home", "shop://home")
        return screen
    }
}

/// The entry the App calls after loading the library: the plugin's definition, contributed to the
/// product page's sections.
@_cdecl("campaign_plugin_entry")
public func campaignPluginEntry() -> UnsafeMutableRawPointer {
    RuntimePluginExport(definitions: [CampaignPlugin.self]).retainedPointer()
}
