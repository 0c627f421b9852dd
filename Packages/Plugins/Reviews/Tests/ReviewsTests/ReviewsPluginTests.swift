import Foundation
import ProductInterface
import ProductInterfaceTestSupport
import Reviews
import Router
import ScreenKit
import Storage
import Synchronization
import Testing

/// A fresh harness whose Storage lives in memory.
private func makeHarness(shown: Int? = nil) throws -> ProductPageHarness {
    let harness = ProductPageHarness()
    try harness.router.services.register(Storage.self, owner: "test", instance: try Storage())
    let settings: [String: PluginSettingValue] = shown.map { ["shown": .int($0)] } ?? [:]
    try harness.install(
        [ReviewsPlugin.self], declarations: [PluginDeclaration(point: ProductSections.id, plugin: "reviews", settings: settings, source: "test")])
    return harness
}

private final class Listener: Sendable {
    let heard = Mutex<[ReviewAdded]>([])
}

@Test func aPageWithoutReviewsSaysSoAndOffersToWriteOne() async throws {
    let harness = try makeHarness()
    let text = TextRenderer(showsURLs: true).render(try await harness.render(harness.page(), productID: 1))
    #expect(text.contains("## Reviews"))
    #expect(text.contains("No reviews yet."))
    #expect(text.contains("<shop://product/1/reviews/new?rating=5&text=Great>"))
}

@Test func writtenReviewsAreStoredAveragedAndListedUpToTheSetting() async throws {
    let harness = try makeHarness(shown: 1)
    _ = try await harness.router.open("shop://product/2/reviews/new?rating=5&text=Lovely&by=Ann", as: Screen.self)
    _ = try await harness.router.open("shop://product/2/reviews/new?rating=2&text=Chipped", as: Screen.self)
    let text = TextRenderer().render(try await harness.render(harness.page(), productID: 2))
    #expect(text.contains("Average rating: ★★★★☆ 3.5 of 5 (2 reviews)"))
    #expect(text.contains("★★☆☆☆ Chipped (a customer)"))
    #expect(!text.contains("Lovely"), "shown: 1 lists only the newest review")
    let other = TextRenderer().render(try await harness.render(harness.page(), productID: 1))
    #expect(other.contains("No reviews yet."))
}

@Test func aBadRatingIsRefusedAndNothingIsStored() async throws {
    let harness = try makeHarness()
    await #expect(throws: ReviewError.self) { _ = try await harness.router.open("shop://product/1/reviews/new?rating=9", as: Screen.self) }
    let text = TextRenderer().render(try await harness.render(harness.page(), productID: 1))
    #expect(text.contains("No reviews yet."))
}

@Test func aStoredReviewIsAnnouncedOnItsProductsPageOnly() async throws {
    let harness = try makeHarness()
    let mugPage = harness.page(), potPage = harness.page()
    _ = try await harness.render(mugPage, productID: 1)
    _ = try await harness.render(potPage, productID: 2)
    let onMug = Listener(), onPot = Listener(), onApp = Listener()
    mugPage.events.subscribe(onMug, to: ReviewAdded.self) { listener, event in listener.heard.withLock { $0.append(event) } }
    potPage.events.subscribe(onPot, to: ReviewAdded.self) { listener, event in listener.heard.withLock { $0.append(event) } }
    harness.router.events.subscribe(onApp, to: ReviewAdded.self) { listener, event in listener.heard.withLock { $0.append(event) } }
    _ = try await harness.router.open("shop://product/1/reviews/new?rating=4", as: Screen.self)
    #expect(onMug.heard.withLock { $0.map(\.rating) } == [4])
    #expect(onPot.heard.withLock { $0.isEmpty })
    #expect(onApp.heard.withLock { $0.isEmpty }, "page events stay on the page's bus")
    mugPage.detach()
    _ = try await harness.router.open("shop://product/1/reviews/new?rating=3", as: Screen.self)
    #expect(onMug.heard.withLock { $0.count } == 1, "a detached plugin no longer publishes")
}

@Test func reviewTextIsOnePlainLineSoItCannotDrawOnTheScreen() throws {
    let book = ReviewBook(storage: try Storage())
    let review = try book.add(productID: 1, rating: 4, text: "a\n[9] Free gift <shop://cart/clear>\n\n## Shipping\u{1B}[31mRED\u{0}\u{202E}x", author: "Ann\nB")
    #expect(review.text == "a [9] Free gift <shop://cart/clear> ## Shipping [31mRED x")
    #expect(review.author == "Ann B")
}

@Test func aReviewOfAProductTheCatalogDoesNotHaveIsRefused() async throws {
    let harness = try makeHarness()
    try harness.router.services.register((any ProductCatalog).self, owner: "test", instance: harness.catalog)
    await #expect(throws: ReviewError.self) { _ = try await harness.router.open("shop://product/999/reviews/new?rating=4", as: Screen.self) }
    _ = try await harness.router.open("shop://product/1/reviews/new?rating=4", as: Screen.self)
}
