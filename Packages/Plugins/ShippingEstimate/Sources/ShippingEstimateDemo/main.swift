// Runs the shipping-estimate plugin alone, in a stand-in product page, with a cart that fills up.
import CartInterface
import CartInterfaceTestSupport
import ProductInterfaceTestSupport
import Router
import ScreenKit
import ShippingEstimate

let harness = ProductPageHarness()
let cart = InMemoryCartService()
try harness.router.services.register((any CartService).self, owner: "demo", instance: cart)
try harness.install(
    [ShippingEstimatePlugin.self],
    declarations: [
        PluginDeclaration(
            point: "product-interface/sections", plugin: ShippingEstimatePlugin.id, settings: ["days": .int(2), "free-over": .number(10)], source: "demo")
    ])
let page = harness.page()
print(TextRenderer().render(try await harness.render(page, productID: 3)))
try await cart.add(productID: 9, quantity: 20)
page.events.publish(CartChanged(itemCount: 20))
print()
print(TextRenderer().render(try await harness.render(page, productID: 3)))
