import Shop
import Foundation
import Router
import Shell
import Synchronization
import Testing

/// The product page as a plugin container in the assembled App: the sections the declaration gives, in its
/// order, what the plugins do for real, a broken plugin left out, and a wrong declaration stopping the start.
@Suite(.serialized) struct PluginTests {
    let app = AppProcess()

    /// The section headings of a printed screen, in order.
    private func headings(_ screen: String) -> [String] {
        screen.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
    }

    @Test(.requires("product", "reviews", "shipping-estimate")) func theProductPageShowsItsPluginsInDeclaredOrder() throws {
        let page = try app.run(["open", "shop://product/1"])
        #expect(page.status == 0)
        let order = headings(page.output)
        // The declaration lists reviews before shipping; recommendations show only once orders exist.
        #expect(order.firstIndex(of: "Reviews").map { index in order.firstIndex(of: "Shipping").map { index < $0 } ?? false } == true, "\(order)")
        #expect(page.output.contains("Delivered in 2 days by Parcel Post."), "the declared settings reach the plugin")
    }

    @Test(.requires("product", "reviews")) func aReviewWrittenThroughThePluginsRouteIsStoredAndAveraged() throws {
        let saved = try app.run(["open", "shop://product/2/reviews/new?rating=5&text=Perfect&by=Ann"])
        #expect(saved.output.hasPrefix("== Review saved =="))
        _ = try app.run(["open", "shop://product/2/reviews/new?rating=2&text=Chipped"])
        let page = try app.run(["open", "shop://product/2"])
        #expect(page.output.contains("Average rating: ★★★★☆ 3.5 of 5 (2 reviews)"))
        #expect(page.output.contains("★★★★★ Perfect (Ann)"))
        let refused = try app.run(["open", "shop://product/2/reviews/new?rating=0"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("a rating is 1 to 5 stars, not 0"))
    }

    @Test(.requires("product", "cart", "user", "order", "recommendations")) func recommendationsComeFromPlacedOrders() throws {
        let input = """
            shop://user/login/alice
            shop://cart/add/1
            shop://cart/add/3?quantity=2
            shop://order/place
            shop://product/1
            quit

            """
        let result = try app.run([], input: input)
        #expect(result.status == 0)
        let page = try #require(result.output.components(separatedBy: "\n== ").last)
        #expect(headings(page).contains("Customers also bought"), "\(page)")
        #expect(page.contains("## Customers also bought\n[6] Pour-over Set — $24.50"), "\(page)")
    }

    @Test(.requires("product", "reviews", "shipping-estimate")) func aPluginThatThrowsIsLeftOutAndThePageStillRenders() throws {
        _ = try app.run(["open", "shop://product/1/reviews/new?rating=4"])
        // A record the reviews plugin cannot decode: it throws while contributing its section.
        let database = app.dataDirectory.appendingPathComponent("shop.sqlite").path
        let corrupt = Process()
        corrupt.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        corrupt.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE record SET value=x'7b7d' WHERE collection='reviews.reviews'\"); c.commit()",
            database,
        ]
        try corrupt.run()
        corrupt.waitUntilExit()
        #expect(corrupt.terminationStatus == 0)
        let page = try app.run(["open", "shop://product/1"])
        #expect(page.status == 0)
        #expect(!headings(page.output).contains("Reviews"))
        #expect(headings(page.output).contains("Shipping"))
        #expect(page.error.contains("warning: plugin 'reviews' of product-interface/sections failed while contributing and is left out:"))
    }

    @Test func aWrongDeclarationStopsTheStartWithExitTwoAndItsPlace() async throws {
        let generated = GeneratedApp.definition.plugins
        let first = try #require(generated.declarations.first, "the workspace declares no plugin")
        var twice = first
        twice.source = "components.yaml:999:15"
        var unknown = first
        unknown.plugin = "no-such-plugin"
        unknown.source = "components.yaml:1000:15"
        let errors = Recorder()
        var runner = AppRunner(
            app: GeneratedApp.definition, output: { _ in }, errorOutput: { errors.append($0) }, readLine: { nil },
            environment: ["SHOP_DATA_DIR": app.dataDirectory.path])
        runner.app.plugins = AppPlugins(points: generated.points, definitions: generated.definitions, declarations: [first, twice, unknown])
        #expect(await runner.run(["routes"]) == 2)
        let text = errors.text
        #expect(text.hasPrefix("error: the app cannot start: its plugin declaration is wrong:\n"))
        #expect(text.contains("components.yaml:999:15: error: plugin '\(first.plugin)' is listed twice under '\(first.point)'"))
        #expect(text.contains("components.yaml:1000:15: error: unknown plugin 'no-such-plugin'"))
    }
}

/// A module that tries to open a door of its own scheme.
private struct EvilModule: AppModule {
    let name = "evil"
    func register(in context: ModuleContext) throws {
        try context.router.register("evil://steal/:token", owner: name) { _ in nil }
    }
}

@Test func aRouteOfAnotherSchemeIsRefusedAtRunTimeAndItsModuleDisabled() async throws {
    var definition = GeneratedApp.definition
    let modules = definition.modules
    definition.modules = { modules() + [EvilModule()] }
    let errors = Recorder(), output = Recorder()
    let runner = AppRunner(
        app: definition, output: { output.append($0) }, errorOutput: { errors.append($0) }, readLine: { nil },
        environment: ["SHOP_DATA_DIR": FileManager.default.temporaryDirectory.appendingPathComponent("evil-\(UUID())").path])
    #expect(await runner.run(["status"]) == 0)
    #expect(
        errors.text.contains(
            "module disabled module=evil reason=it failed to register: Route 'evil://steal/:token' of 'evil' uses a scheme this app does not route"))
    #expect(output.text.contains("evil") && output.text.contains("DISABLED"))
}
