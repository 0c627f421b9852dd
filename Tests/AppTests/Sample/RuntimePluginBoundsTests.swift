import Foundation
import PluginFeed
import Testing

/// What the App promises about a loaded plugin, driven through the real binaries with a signed plugin that
/// misbehaves (1.5.0 of the fixture): it was built against the App's very content; it registers only what
/// its manifest declares, as itself, while it loads; a refused load is undone whole; no plugin route
/// shadows an App route; and a crash is laid at the door of the plugin only when its code was running.
@Suite(.serialized, .requires("campaign", "product", "user", "cart", "runtime-plugins"))
struct RuntimePluginBoundsTests {
    let fixture: RuntimePluginFixture
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-plugin-bounds-\(UUID().uuidString)")

    init() throws { fixture = try RuntimePluginFixture.shared.get() }

    /// An App with `versions` installed in turn from a feed of them, running with `attack` set.
    private func app(installing versions: [String], attack: RuntimePluginFixture.Attack? = nil, server: FeedServer, feed: URL) throws -> AppProcess {
        var app = AppProcess.withPlugins(try fixture.configuration(feed: server.url, in: scratch.appendingPathComponent(UUID().uuidString)))
        for version in versions {
            try fixture.publish(version, to: feed)
            #expect(try app.run(["plugins", "install", "campaign@\(version)"]).status == 0)
        }
        app.environment["CAMPAIGN_ATTACK"] = attack?.rawValue
        return app
    }

    @Test(arguments: [
        (RuntimePluginFixture.Attack.takeover, "it tried to unregister shop://user/login/:userID, which 'user' owns"),
        (RuntimePluginFixture.Attack.interceptor, "it tried to add the interceptor 'campaign-spy'"),
        (RuntimePluginFixture.Attack.service, "it tried to provide the service CampaignSpy"),
        (RuntimePluginFixture.Attack.openURL, "its module handles open-url, which would let it claim or rewrite what the App receives"),
        (RuntimePluginFixture.Attack.moduleName, "its module is named 'user', not 'campaign'"),
    ])
    func aPluginThatReachesBeyondItsManifestIsRefusedAndUndoneWhole(attack: RuntimePluginFixture.Attack, breach: String) throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try app(installing: ["1.5.0"], attack: attack, server: server, feed: feed)
        let home = try app.run(["open", "shop://home"])
        #expect(home.status == 0)
        #expect(home.error.contains("plugin campaign 1.5.0 failed to load and is marked bad: \(breach)"), "\(home.error)")
        #expect(!home.output.contains("15% off"), "the promotion it published while loading never reaches the home screen")
        let signIn = try app.run(["open", "shop://user/login/alice"])
        #expect(!signIn.output.contains("stolen sign-in"))
        let routes = try app.run(["routes"]).output
        #expect(routes.contains("shop://user/login/:userID"), "the User module still owns the sign-in route")
        #expect(!routes.contains("campaign"), "nothing of the refused plugin stays registered")
        #expect(try app.run(["plugins", "list"]).output.contains("marked bad: 1.5.0"))
    }

    @Test func aPluginThatRegistersAfterItsLoadIsRefusedTurnedOffAndMarkedBad() throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try app(installing: ["1.5.0"], attack: .late, server: server, feed: feed)
        let session = try app.run([], input: "shop://campaign/winter\nshop://cart/free\nshop://product/1\nquit\n")
        #expect(
            session.error.contains(
                "plugin campaign 1.5.0 tried to register the route shop://cart/free after its load finished; it is turned off and marked bad"),
            "\(session.error)")
        #expect(session.output.contains("Page not found"), "the late route was never registered: \(session.output)")
        #expect(!session.output.contains("15% off:"), "turned off: its section is gone from the product page")
        #expect(try app.run(["plugins", "list"]).output.contains("marked bad: 1.5.0"))
    }

    @Test func aPluginBuiltAgainstAnUnreleasedChangeIsRefusedAtPackAndByTheAppNamingTheComponent() throws {
        let refusal = fixture.unreleasedRefusal
        #expect(refusal.status == 1)
        #expect(
            refusal.output.contains("campaign@1.7.0 cannot be packed: 'models' (Packages/Foundation/Models) differs from its release models@1.0.0"),
            "\(refusal.output)")

        // Packed while models had no release tag: the label says 1.0.0, the content is not the App's.
        let feed = try fixture.feed(["1.0.0", "1.7.0"])
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = AppProcess.withPlugins(try fixture.configuration(feed: server.url, in: scratch.appendingPathComponent(UUID().uuidString)))
        let differs = "built against models 1.0.0 with content "
        let available = try app.run(["plugins", "available"]).output
        #expect(available.contains("campaign 1.7.0") && available.contains("cannot load here: \(differs)"), "\(available)")
        #expect(!available.contains("built against router"), "only what differs is named")
        let refused = try app.run(["plugins", "install", "campaign@1.7.0"])
        #expect(refused.status == 1)
        #expect(refused.error.contains(differs) && refused.error.contains(", the App has models 1.0.0 with content "), "\(refused.error)")
        #expect(try app.run(["plugins", "install", "campaign"]).output.contains("Installed campaign 1.0.0"), "the newest version built against this App")
    }

    @Test func aRouteThatShadowsAnAppRouteIsRefusedAtPackCheckAndLoad() throws {
        let (pack, check) = fixture.shadowRefusals
        let both = "route 'shop://user/login/alice' of runtime plugin 'campaign' matches URLs that 'shop://user/login/:userID' of 'user'"
        #expect(pack.output.contains(both), "\(pack.output)")
        #expect(pack.output.contains("cannot be packed"))
        #expect(check.output.contains(both), "\(check.output)")
        #expect(check.output.contains("plugin-route-overlap"))

        // A manifest that declares the literal, signed by the trusted key (as a packer that skipped the check would).
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let forged = try shadowingArchive()
        try RuntimePluginFixture.componentctl(["plugin", "publish", forged.path, "--feed", feed.path, "--key", fixture.key.path])
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = AppProcess.withPlugins(try fixture.configuration(feed: server.url, in: scratch.appendingPathComponent(UUID().uuidString)))
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        let signIn = try app.run(["open", "shop://user/login/alice"])
        #expect(
            signIn.error.contains(
                "its route shop://user/login/alice matches URLs that shop://user/login/:userID of 'user' matches, so one would answer the other's links"),
            "\(signIn.error)")
        #expect(!(try app.run(["routes"]).output.contains("campaign")))
    }

    /// 1.0.0's archive as 1.6.0, its manifest declaring `shop://user/login/alice` too, signed again.
    private func shadowingArchive() throws -> URL {
        let archive = scratch.appendingPathComponent("campaign-1.6.0.tar")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture.archive("1.0.0"), to: archive)
        try RuntimePluginFixture.rewriteManifest(of: archive, key: fixture.key) { manifest in
            manifest.version = "1.6.0"
            manifest.routes.append("shop://user/login/alice")
        }
        return archive
    }

    @Test func aCrashInThePluginsScreenAfterACleanUnrelatedRunStillRollsBackAfterTwo() throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let server = try FeedServer(feed)
        defer { server.stop() }
        var app = try app(installing: ["1.0.0"], server: server, feed: feed)
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("10% off everything"), "1.0.0's code ran: trusted")
        try fixture.publish("1.5.0", to: feed)
        #expect(try app.run(["plugins", "update", "campaign"]).status == 0)
        // A clean run that never calls into 1.5.0 after its load proves nothing of it.
        #expect(try app.run(["open", "shop://home"]).output.contains("15% off everything"))
        let versions = app.dataDirectory.appendingPathComponent("plugins/versions/campaign")
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).sorted() == ["1.0.0", "1.5.0"], "the previous version is kept")
        #expect(try app.run(["status"]).output.contains("campaign  loaded 1.5.0, on trial until its code runs to a clean exit"))

        app.environment["CAMPAIGN_ATTACK"] = RuntimePluginFixture.Attack.crashPage.rawValue
        for _ in 1...2 { #expect(try app.run(["open", "shop://campaign/winter"]).status != 0, "the campaign page crashes the App") }
        app.environment["CAMPAIGN_ATTACK"] = nil
        let recovered = try app.run(["open", "shop://campaign/winter"])
        #expect(recovered.error.contains("plugin campaign 1.5.0 crashed the App twice inside its own code"), "\(recovered.error)")
        #expect(recovered.output.contains("10% off everything"), "the version it replaced loads again")
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.0.0, marked bad: 1.5.0\n")
        #expect(try app.run(["status"]).output.contains("campaign  loaded 1.0.0; marked bad: 1.5.0"))
    }

    @Test func aCrashInThePluginsModuleCountsAgainstIt() throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let server = try FeedServer(feed)
        defer { server.stop() }
        var app = try app(installing: ["1.0.0"], server: server, feed: feed)
        #expect(try app.run(["open", "shop://campaign/winter"]).status == 0)
        try fixture.publish("1.5.0", to: feed)
        #expect(try app.run(["plugins", "update", "campaign"]).status == 0)
        app.environment["CAMPAIGN_ATTACK"] = RuntimePluginFixture.Attack.crashGetter.rawValue
        for _ in 1...2 { #expect(try app.run(["open", "shop://home"]).status != 0, "the App reads the module's priority at every start") }
        let recovered = try app.run(["open", "shop://home"])
        #expect(recovered.status == 0)
        #expect(recovered.error.contains("plugin campaign 1.5.0 crashed the App twice inside its own code"), "\(recovered.error)")
        #expect(recovered.output.contains("10% off everything"))
    }

    @Test func runsKilledOutsideThePluginsCodeCountForNothing() throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try app(installing: ["1.0.0"], server: server, feed: feed)
        #expect(try app.run(["open", "shop://campaign/winter"]).status == 0)
        try fixture.publish("1.1.0", to: feed)
        #expect(try app.run(["plugins", "update", "campaign"]).status == 0)
        for _ in 1...2 { #expect(try app.runInteractive(until: "20% off everything", then: SIGKILL) == SIGKILL) }
        let next = try app.run(["open", "shop://campaign/winter"])
        #expect(!next.error.contains("crashed"), "\(next.error)")
        #expect(next.output.contains("20% off everything"))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.1.0\n")
    }
}
