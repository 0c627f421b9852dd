import Foundation
import Testing

@Suite(.serialized) struct SampleCommandTests {
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
