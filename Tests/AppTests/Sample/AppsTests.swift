import Foundation
import Testing

/// Every app of components.yaml builds and runs with exactly its components, and the sample's `shop-lite`
/// answers links to the features it leaves out as its `missing:` declares.
@Suite struct AppsTests {
    @Test func everyAppStartsAndOwnsOnlyRoutesOfItsComponents() throws {
        for (name, product) in try AppProcess.apps() {
            let app = AppProcess(product: product)
            let routes = try app.run(["routes", "--format", "json"])
            #expect(routes.status == 0, "\(name): \(routes.error)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(routes.output.utf8)) as? [[String: Any]])
            let owners = Set(rows.compactMap { $0["owner"] as? String })
            let linked = try AppProcess.componentNames(ofApp: name)
            #expect(owners.isSubset(of: linked), "\(name) has routes of \(owners.subtracting(linked).sorted())")
        }
    }

    @Test(.requiresApp("shop-lite", workspaceHas: "order", "user")) func shopLiteSaysAnOrderLinkIsNotInTheAppAndOpensAccountPagesOnTheWeb() throws {
        let lite = AppProcess(product: try #require(try AppProcess.apps()["shop-lite"]))
        let order = try lite.run(["open", "shop://order/list"])
        #expect(order.status == 0)
        #expect(order.output.contains("== Not in this app =="))
        #expect(order.output.contains("'shop://order/list' opens order, which the app 'shop-lite' does not contain."))
        let detail = try lite.run(["open", "shop://order/7"])
        #expect(detail.output.contains("opens order"))
        let account = try lite.run(["open", "shop://user/profile"])
        #expect(account.output.contains("== Web page =="))
        #expect(account.output.contains("https://m.shop.example/user/profile"))
        let unknown = try lite.run(["open", "shop://nowhere"])
        #expect(unknown.output.contains("== Page not found =="))
    }

    @Test(.requiresApp("shop-lite", workspaceHas: "home", "product", "cart")) func shopLiteHasItsOwnHomeAndACartThatWorks() throws {
        let lite = AppProcess(product: try #require(try AppProcess.apps()["shop-lite"]))
        let session = try lite.run([], input: "shop://cart/add/1\nhome\nquit\n")
        #expect(session.status == 0, "\(session.error)")
        #expect(session.output.contains("== Shop Lite =="))
        #expect(session.output.contains("Coffee Mug"))
        let routes = try lite.run(["routes"])
        #expect(!routes.output.contains("shop://order/"))
        #expect(routes.output.contains("shop://product/"))
    }
}
