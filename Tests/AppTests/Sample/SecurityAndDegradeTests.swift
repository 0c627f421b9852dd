import Foundation
import Testing

/// External links, signing, the degrade table, logging and the JSON route table, through the binary.
@Suite(.serialized) struct SecurityAndDegradeTests {
    let app = AppProcess()

    @Test(.requires("product", "order")) func externalLinksNeedAValidSignatureAndAPublicRoute() throws {
        let app = try self.app.signingLinks()
        let unsigned = try app.run(["open", "--external", "shop://product/1"])
        #expect(unsigned.status == 1)
        #expect(unsigned.error.contains("it carries no signature"))

        let signed = try app.run(["sign", "shop://product/1", "--lifetime", "60"]).output.trimmingCharacters(in: .newlines)
        #expect(signed.hasPrefix("shop://product/1?exp="))
        let opened = try app.run(["open", "--external", signed])
        #expect(opened.status == 0)
        #expect(opened.output.hasPrefix("== Coffee Mug =="))
        #expect(try app.run(["open", "--external", signed]).status == 0, "a link that is not one-time opens again")

        let tampered = try app.run(["open", "--external", signed.replacingOccurrences(of: "product/1", with: "product/2")])
        #expect(tampered.error.contains("its signature does not match"))
        var otherKey = app
        otherKey.environment["SHOP_LINK_KEYS"] = try TestSigningKey().publicKey
        #expect(try otherKey.run(["open", "--external", signed]).error.contains("which this app does not trust"))
        var noKeys = app
        noKeys.environment["SHOP_LINK_KEYS"] = nil
        #expect(try noKeys.run(["open", "--external", signed]).status == 1, "the App ships trusting no key")

        let once = try app.run(["sign", "--once", "shop://product/1"]).output.trimmingCharacters(in: .newlines)
        #expect(try app.run(["open", "--external", once]).status == 0)
        let replayed = try app.run(["open", "--external", once])
        #expect(replayed.status == 1)
        #expect(replayed.error.contains("it opens once, and it was opened before"))
        #expect(replayed.error.contains("warning: refused external link"), "the observer logs it")

        let internalLink = try app.run(["sign", "shop://order/list"]).output.trimmingCharacters(in: .newlines)
        let refused = try app.run(["open", "--external", internalLink])
        #expect(refused.status == 1)
        #expect(refused.error.contains("is not a public route"))
        #expect(try app.run(["sign", "not a url"]).status == 2)
        for lifetime in ["inf", "1e300", "0", "-5", "nan"] {
            #expect(try app.run(["sign", "shop://product/1", "--lifetime", lifetime]).status == 2, "\(lifetime)")
        }
        // The signature is checked before the modules see the link: a module's rewrite keeps a signed link good.
        let oldShape = try app.run(["sign", "shop://item/3"]).output.trimmingCharacters(in: .newlines)
        #expect(try app.run(["open", "--external", oldShape]).output.hasPrefix("== Pour-over Set =="))
        let unsignedOldShape = try app.run(["open", "--external", "shop://item/3"])
        #expect(unsignedOldShape.error.contains("The external link 'shop://item/3' is refused: it carries no signature"), "\(unsignedOldShape.error)")
        let keyless = try self.app.run(["sign", "shop://product/1"])
        #expect(keyless.status == 2)
        #expect(keyless.error.contains("signing a link needs the private key"))
    }

    @Test(.requires("home", "product")) func aDegradedRouteShowsTheWebContainer() throws {
        var app = self.app
        let table = FileManager.default.temporaryDirectory.appendingPathComponent("degrade-\(UUID()).json")
        try Data(#"{"rules": [{"pattern": "shop://product/<int:id>", "target": "https://m.shop.example/p/{id}", "reason": "broken"}]}"#.utf8).write(to: table)
        app.environment["SHOP_DEGRADE_TABLE"] = table.path
        let result = try app.run(["open", "shop://product/4"])
        #expect(result.status == 0)
        #expect(result.output.contains("The web container shows https://m.shop.example/p/4"))
        #expect(try self.app.run(["open", "shop://product/4"]).output.hasPrefix("== Espresso Cups =="))

        try Data("{\"rules\": 3}".utf8).write(to: table)
        let broken = try app.run(["open", "shop://home"])
        #expect(broken.status == 2)
        #expect(broken.error.contains("Degrade table '\(table.path)' is not usable"))
    }

    @Test(.requires("product", "user", "order")) func loggingAndTheJSONRouteTable() throws {
        var app = self.app
        app.environment["SHOP_LOG"] = "1"
        let logged = try app.run(["open", "shop://order/list"])
        #expect(
            logged.error
                == "info: route origin=in-app owner=order url=shop://order/list\n"
                + "info: route origin=in-app owner=user url=shop://user/login?next=shop%3A%2F%2Forder%2Flist\n")
        app.environment["SHOP_LOG"] = "loud"
        let wrong = try app.run(["open", "shop://home"])
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("SHOP_LOG is 'loud'; it takes a level: trace, debug, info, notice, warning, error, critical"))
        #expect(try app.run(["help"]).status == 0, "help explains SHOP_LOG even when it is wrong")

        let json = try self.app.run(["routes", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let detail = try #require(rows.first { $0["pattern"] as? String == "shop://product/<int:id>" })
        #expect(detail["owner"] as? String == "product")
        #expect(detail["public"] as? Bool == true)
        let orders = try #require(rows.first { $0["pattern"] as? String == "shop://order/list" })
        #expect(orders["labels"] as? [String] == ["requires-login"])
        #expect(orders["public"] as? Bool == false)
    }
}
