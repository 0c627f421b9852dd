import Campaign
import HomeInterface
import ProductInterface
import ProductInterfaceTestSupport
import Router
import ScreenKit
import Synchronization
import Testing

private func makeHarness() throws -> ProductPageHarness {
    let harness = ProductPageHarness()
    try harness.router.services.register((any ProductCatalog).self, owner: "test", instance: harness.catalog)
    try harness.install([CampaignPlugin.self])
    return harness
}

@Test func theBannerShowsTheCampaignPriceAndLinksTheCampaign() async throws {
    let harness = try makeHarness()
    let text = TextRenderer(showsURLs: true).render(try await harness.render(harness.page(), productID: 1))
    #expect(text.contains("Winter sale"))
    #expect(text.contains("10% off: $4.50 instead of $5.00."))
    #expect(text.contains("shop://campaign/winter"))
}

@Test func theBannerHearsAReviewWrittenOnItsPage() async throws {
    let harness = try makeHarness()
    let page = harness.page()
    #expect(!TextRenderer().render(try await harness.render(page, productID: 2)).contains("draw"))
    page.events.publish(ReviewAdded(productID: 2, rating: 5))
    #expect(TextRenderer().render(try await harness.render(page, productID: 2)).contains("enters you in the winter sale draw"))
}

@Test func theCampaignPageListsEveryProductAtItsCampaignPrice() async throws {
    let harness = try makeHarness()
    let screen = try await harness.router.open("shop://campaign/winter", as: Screen.self)
    #expect(screen.title == "Winter sale")
    #expect(screen.links.map(\.url) == ["shop://product/1", "shop://product/2", "shop://product/3"])
    #expect(screen.links.first?.title == "Mug — $4.50 (was $5.00)")
    let over = try await harness.router.open("shop://campaign/summer", as: Screen.self)
    #expect(over.title == "Campaign over")
}

@Test func theCampaignIsAnnouncedToTheHomeScreen() throws {
    let router = Router()
    let heard = Heard()
    router.events.subscribe(heard, to: HomePromotion.self) { heard, promotion in heard.add(promotion) }
    try ProductPageHarness(router: router).install([CampaignPlugin.self])
    #expect(heard.all == [HomePromotion(title: "Winter sale: 10% off everything", url: "shop://campaign/winter")])
}

private final class Heard: Sendable {
    private let list = Mutex<[HomePromotion]>([])
    func add(_ promotion: HomePromotion) { list.withLock { $0.append(promotion) } }
    var all: [HomePromotion] { list.withLock { $0 } }
}

@Test func theEntryHandsOverTheDefinitionAsTheAppReceivesIt() throws {
    let export = try #require(RuntimePluginExport.take(campaignPluginEntry()))
    #expect(export.contributions.map(\.plugin) == ["campaign"])
    #expect(export.contributions.map(\.point) == [ProductSections.id])
}
