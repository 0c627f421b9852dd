import Foundation
import Testing

@Suite(.serialized) struct AppCommandTests {
    let app = AppProcess()

    @Test(.requires("product")) func routesListsTheWholeTableWithOwnersFromComponentsYAML() throws {
        let result = try app.run(["routes"])
        #expect(result.status == 0)
        let rows = result.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.allSatisfy { $0.count == 2 })
        let owners = Set(rows.map { $0[1] })
        #expect(owners.isSubset(of: try AppProcess.componentNames()))
        #expect(rows.contains(["shop://product/<int:id>", "product"]))
    }

    @Test func everyParameterFreeRouteOpens() throws {
        let patterns = try app.run(["routes"]).output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        let parameterFree = patterns.filter { pattern in
            !(pattern.components(separatedBy: "://").last ?? "").contains(where: { ":<*".contains($0) })
        }
        #expect(!parameterFree.isEmpty)
        for pattern in parameterFree {
            let result = try app.run(["open", pattern])
            #expect(result.status == 0, "\(pattern): \(result.error)")
            #expect(result.output.hasPrefix("== "), "\(pattern)")
        }
    }

    @Test func unparseableURLIsExitTwoWithAMessage() throws {
        let result = try app.run(["open", "not a url"])
        #expect(result.status == 2)
        #expect(result.error.contains("Invalid URL 'not a url'"))
        #expect(result.output.isEmpty)
    }

    @Test func unmatchedURLShowsTheFallbackAndWebURLsTheWebContainer() throws {
        let missing = try app.run(["open", "shop://nowhere/7"])
        #expect(missing.status == 0)
        #expect(missing.output.hasPrefix("== Page not found =="))
        let web = try app.run(["open", "https://example.com/help"])
        #expect(web.status == 0)
        #expect(web.output.contains("The web container shows https://example.com/help"))
    }

    @Test func usageErrorsAreExitTwo() throws {
        let product = AppProcess.productUnderTest
        #expect(try app.run(["frobnicate"]).status == 2)
        let open = try app.run(["open"])
        #expect(open.status == 2)
        #expect(open.error.contains("Missing expected argument '<url>'") && open.error.contains("Usage: \(product) open [--external] <url>"), "\(open.error)")
        #expect(try app.run(["routes", "extra"]).status == 2)
        #expect(try app.run(["event", "cart.synced", "items"]).error.contains("'items' is no KEY=VALUE pair"))
        let help = try app.run(["help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: \(product) [--profile-startup] [<subcommand>]"), "\(help.output)")
        #expect(help.output.contains("SHOP_DATA_DIR"), "the settings, under the app's prefix")
        let openHelp = try app.run(["open", "--help"])
        #expect(openHelp.status == 0 && openHelp.output.contains("USAGE: \(product) open [--external] <url>"))
        #expect(try app.run(["help", "open"]).output == openHelp.output)
    }

    @Test(.requires("home")) func aLayoutFileThatIsNoLayoutDisablesHomeAndTheAppRuns() throws {
        var app = self.app
        let layout = FileManager.default.temporaryDirectory.appendingPathComponent("bad-layout-\(UUID()).json")
        try Data("{\"title\": 1}".utf8).write(to: layout)
        app.environment["SHOP_HOME_LAYOUT"] = layout.path
        let result = try app.run(["open", "shop://home"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("== Temporarily unavailable =="))
        #expect(result.error.contains("error: module disabled module=home reason=it failed to register: Home layout '\(layout.path)' is not usable"))
    }

    @Test(.requires("product")) func optionsGoAnywhereAndTakeEitherSpelling() throws {
        let app = try self.app.signingLinks()
        let signed = try app.run(["sign", "--lifetime", "10", "shop://product/1"])
        #expect(signed.status == 0, "\(signed.error)")
        #expect(signed.output.hasPrefix("shop://product/1?exp="))
        #expect(try app.run(["sign", "shop://product/1", "--lifetime=10"]).status == 0)
        let json = try app.run(["routes", "--format=json"])
        #expect(json.status == 0)
        #expect(json.output.hasPrefix("["))
        #expect(try app.run(["open", "shop://product/1", "--external"]).status != 2)
        #expect(try app.run(["routes", "--format", "yaml"]).status == 2)
        #expect(try app.run(["sign", "--lifetime", "-5", "shop://product/1"]).status == 2)
    }

    @Test(.requires("product", "cart", "user")) func theShellSaysEachThingOnceAndHelpsWithItsOwnCommands() throws {
        let run = try app.run(
            [], input: "help\nshop://product/search?q=\nshop://cart/add/1\nshop://cart/remove/1\nshop://user/login/alice\nshop://user/logout\nquit\n")
        #expect(run.status == 0)
        #expect(run.output.contains("a link's number      opens that link of the screen"))
        #expect(!run.output.contains("open [--external] URL"))
        #expect(run.output.contains("== Search ==\n"))
        #expect(run.output.contains("Removed Coffee Mug."))
        let signedIn = try #require(run.output.components(separatedBy: "== Account ==").dropFirst().first)
        #expect(signedIn.components(separatedBy: "Signed in as").count == 2)
        let signedOut = try #require(run.output.components(separatedBy: "== Account ==").last)
        #expect(signedOut.contains("Alice Liddell signed out."))
        #expect(!signedOut.contains("You are not signed in."))
    }

    @Test(.requires("home", "product", "cart", "user", "order")) func backShowsTheScreenAsItIsNowAndHomeLinksKeepTheirNumbers() throws {
        // The cart, then placing the order (which empties the cart), then back: the cart is shown again, empty.
        let run = try app.run([], input: "shop://user/login/alice\nshop://cart/add/1\nshop://order/place\nback\nhome\nquit\n")
        #expect(run.status == 0, "\(run.error)")
        let screens = run.output.components(separatedBy: "\n== ")
        let afterBack = try #require(screens.dropLast().last)
        #expect(afterBack.hasPrefix("Cart =="), "\(afterBack)")
        #expect(afterBack.contains("Your cart is empty."))

        func homeLinks(_ input: String) throws -> [String] {
            let output = try app.run([], input: input).output
            let home = try #require(output.components(separatedBy: "\n== ").last)
            return home.split(separator: "\n").filter { $0.hasPrefix("[") }.map {
                String($0.prefix(4)) + String($0.split(separator: " ").dropFirst().first ?? "")
            }
        }
        let signedOut = try homeLinks("quit\n").count
        let signedIn = try homeLinks("shop://user/login/bob\nhome\nquit\n").count
        #expect(signedOut == signedIn)
    }
}
