import Foundation
import Testing

/// The user's flows, driven through the interactive shell and deep links as a person or a script would.
@Suite(.serialized) struct FlowTests {
    let app = AppProcess()

    @Test(.requires("home", "product", "cart")) func browseHomeToProductAddToCartAndTheCartShowsIt() throws {
        // Home (whichever layout the app has) links the Coffee Mug; on its page link 1 adds it to the cart.
        let home = try app.run(["open", "shop://home"]).output
        let line = try #require(home.split(separator: "\n").first { $0.hasPrefix("[") && $0.contains("] Coffee Mug") })
        let number = line.dropFirst().prefix { $0 != "]" }
        let result = try app.run([], input: "\(number)\n1\nback\nquit\n")
        #expect(result.status == 0)
        let screens = Array(result.output.components(separatedBy: "\n== ").dropFirst())
        #expect(screens.map { $0.prefix { $0 != "=" } }.dropFirst() == ["Coffee Mug ", "Cart ", "Coffee Mug "])
        #expect(home.hasPrefix("== " + (screens.first?.prefix { $0 != "=" } ?? "")))
        #expect(screens[2].contains("1 × Coffee Mug @ $12.50 = $12.50"))
    }

    @Test(.requires("home", "product", "cart")) func theCartSurvivesARestart() throws {
        #expect(try app.run(["open", "shop://cart/add/5?quantity=3"]).status == 0)
        let restarted = try app.run(["open", "shop://cart"])
        #expect(restarted.output.contains("3 × Coffee Beans @ $14.99 = $44.97"))
        #expect(FileManager.default.fileExists(atPath: app.dataDirectory.appendingPathComponent("shop.sqlite").path))
        let home = try app.run(["open", "shop://home"])
        #expect(home.output.contains("Cart: 3 items, $44.97"))
    }

    @Test(.requires("home", "user", "order")) func signingInChangesWhatOrderShows() throws {
        // User's login interceptor sends a signed-out user to sign in first, and back afterwards.
        let signedOut = try app.run(["open", "shop://order/list"])
        #expect(signedOut.output.hasPrefix("== Sign in =="))
        #expect(signedOut.output.contains("[1] Alice Liddell  <shop://user/login/alice?next=shop%3A%2F%2Forder%2Flist>"))
        let resumed = try app.run(["open", "shop://user/login/alice?next=shop://order/list"])
        #expect(resumed.output.hasPrefix("== Orders of Alice Liddell =="))
        #expect(resumed.output.contains("No orders yet."))
        #expect(try app.run(["open", "shop://home"]).output.contains("Welcome back, Alice Liddell."))
        _ = try app.run(["open", "shop://user/logout"])
        #expect(try app.run(["open", "shop://order/list"]).output.hasPrefix("== Sign in =="))
    }

    @Test(.requires("product", "cart", "user", "order")) func checkoutPlacesAnOrderAndEmptiesTheCart() throws {
        let input = """
            shop://product/3
            2
            shop://order/checkout
            2
            1
            shop://cart
            quit

            """
        let result = try app.run([], input: input)
        #expect(result.status == 0)
        #expect(result.output.contains("Add 2 to cart"))
        #expect(result.output.contains("Choose an account:"))
        #expect(result.output.contains("== Review your order ==\nOrdering as Bob Marley:"))
        #expect(result.output.contains("Thank you, Bob Marley! Order 1 is placed."))
        #expect(result.output.contains("2 × Pour-over Set @ $24.50"))
        #expect(result.output.hasSuffix("Your cart is empty.\n[1] Browse products\n> "))
        #expect(try app.run(["open", "shop://order/list"]).output.contains("Order 1: 2 items, $49.00"))
    }

    @Test(.requires("home")) func endOfInputExitsCleanlyAndBadCommandsAreExplained() throws {
        let result = try app.run([], input: "42\nsing\nback\nshop://bad url%zz\n")
        #expect(result.status == 0)
        #expect(result.output.contains("There is no link 42 on this screen"))
        #expect(result.output.contains("Unknown command 'sing'"))
        #expect(result.output.contains("Already at the first screen."))
        #expect(result.output.contains("Cannot open 'shop://bad url%zz'"))
    }
}
