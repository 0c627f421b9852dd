import Foundation
import Testing
import ScreenKit

@Suite struct ScreenTests {
    @Test func rendersAndNumbersLinksInOrder() {
        var screen = Screen(title: "Cart")
        screen.text("2 items")
        screen.link("Mug", "myapp://product/1")
        screen.divider()
        screen.heading("Next")
        screen.link("Checkout", "myapp://order/checkout")
        #expect(screen.links.map(\.title) == ["Mug", "Checkout"])
        #expect(
            TextRenderer().render(screen) == """
                == Cart ==
                2 items
                [1] Mug
                ----

                ## Next
                [2] Checkout
                """)
        #expect(TextRenderer(showsURLs: true).render(screen).contains("[2] Checkout  <myapp://order/checkout>"))
    }

    @Test func screensRoundTripThroughCodable() throws {
        var screen = Screen(title: "T")
        screen.link("a", "myapp://a")
        let data = try JSONEncoder().encode(screen)
        #expect(try JSONDecoder().decode(Screen.self, from: data) == screen)
    }
}
