import CartInterface
import CartInterfaceTestSupport
import ProductInterface
import ProductInterfaceTestSupport
import Router
import ScreenKit
import ShippingEstimate
import Testing

private func makeHarness(_ settings: [String: PluginSettingValue], cart: InMemoryCartService?) throws -> ProductPageHarness {
    let harness = ProductPageHarness()
    if let cart { try harness.router.services.register((any CartService).self, owner: "test", instance: cart) }
    try harness.install(
        [ShippingEstimatePlugin.self],
        declarations: [PluginDeclaration(point: ProductSections.id, plugin: "shipping-estimate", settings: settings, source: "test")])
    return harness
}

@Test func theSettingsReachThePlugin() async throws {
    let harness = try makeHarness(["days": .int(1), "carrier": .string("Bike"), "free-over": .number(20)], cart: nil)
    let text = TextRenderer().render(try await harness.render(harness.page(), productID: 1))
    #expect(text.contains("Delivered in 1 day by Bike."))
    #expect(text.contains("Free shipping on orders over $20.00."))
    let defaults = try makeHarness([:], cart: nil)
    let plain = TextRenderer().render(try await defaults.render(defaults.page(), productID: 1))
    #expect(plain.contains("Delivered in 3 days by Parcel Post."))
    #expect(plain.contains("over $50.00"))
}

@Test func theCartsDistanceToFreeShippingFollowsCartChangesOnThePage() async throws {
    let cart = InMemoryCartService()
    let harness = try makeHarness(["free-over": .int(10)], cart: cart)
    let page = harness.page()
    #expect(TextRenderer().render(try await harness.render(page, productID: 1)).contains("Free shipping over $10.00: $10.00 to go."))
    try await cart.add(productID: 7, quantity: 6)
    #expect(TextRenderer().render(try await harness.render(page, productID: 1)).contains("$10.00 to go"), "kept until the page hears of a change")
    page.events.publish(CartChanged(itemCount: 6))
    #expect(TextRenderer().render(try await harness.render(page, productID: 1)).contains("Add this to your cart ($6.00) and it ships free."))
    try await cart.add(productID: 7, quantity: 4)
    page.events.publish(CartChanged(itemCount: 10))
    #expect(TextRenderer().render(try await harness.render(page, productID: 1)).contains("Your cart ($10.00) ships free."))
}
