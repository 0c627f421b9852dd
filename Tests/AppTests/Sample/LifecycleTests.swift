import Foundation
import Testing

/// The module lifecycle through the built App: which modules hear which events and in what order, what
/// the sample modules do with them, a module that fails being isolated, and the startup profile.
@Suite(.serialized) struct LifecycleTests {
    let app = AppProcess()

    /// Each module in boot order with the events it handles, as `App status` lists them.
    private func modules() throws -> [(name: String, events: Set<String>)] {
        try app.run(["status"]).output.split(separator: "\n").dropFirst().compactMap { line in
            guard line.hasPrefix("  ") else { return nil }
            let name = String(line.trimmingCharacters(in: .whitespaces).prefix { $0 != " " })
            let handles = line.components(separatedBy: "(handles ").dropFirst().first.map { $0.dropLast() } ?? ""
            return (name, Set(handles.components(separatedBy: ", ").filter { !$0.isEmpty }))
        }
    }

    @Test func eachEventReachesTheModulesThatDeclareItInBootOrderAndTheWayDownReversed() throws {
        let modules = try modules()
        var app = self.app
        app.environment["SHOP_LOG"] = "debug"
        let run = try app.run([], input: "memory-warning\nnotify {\"type\": \"ping\"}\nquit\n")
        #expect(run.status == 0)
        let delivered = run.error.split(separator: "\n").filter { $0.hasPrefix("debug: lifecycle event delivered") }.map { line in
            let fields = Dictionary(
                line.split(separator: " ").compactMap { field -> (String, String)? in
                    let parts = field.split(separator: "=", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
                }
            ) { a, _ in a }
            return (event: fields["event"] ?? "", module: fields["module"] ?? "")
        }
        for event in ["launch", "foreground", "memory-warning", "notification", "background", "terminate"] {
            var expected = modules.filter { $0.events.contains(event) }.map(\.name)
            if ["background", "terminate"].contains(event) { expected.reverse() }
            let got = delivered.filter { $0.event == event }.map(\.module)
            // Launch work after the first screen ends when it ends: for launch, who heard it, not the order.
            if event == "launch" { #expect(Set(got) == Set(expected) && got.count == expected.count, "\(got)") } else { #expect(got == expected, "\(event)") }
        }
        #expect(Set(delivered.map(\.event)).isSubset(of: ["launch", "foreground", "memory-warning", "notification", "background", "terminate"]))
    }

    @Test(.requires("home", "cart")) func aCartLeftInTheBackgroundIsWaitingOnTheHomeScreenAtTheNextLaunch() throws {
        #expect(try app.run([], input: "shop://cart/add/1\nquit\n").status == 0)
        #expect(try app.run(["open", "shop://home"]).output.contains("Your cart is waiting: 1 item"))
        #expect(try app.run(["open", "shop://cart/clear"]).status == 0)
        #expect(!(try app.run(["open", "shop://home"]).output.contains("Your cart is waiting")), "an emptied cart forgets it")
    }

    @Test(.requires("user", "cart", "home")) func aSessionRevokedPushSignsOutAndTheCartForgetsItsReminder() throws {
        #expect(try app.run(["open", "shop://user/login/alice"]).status == 0)
        #expect(try app.run([], input: "shop://cart/add/2\nquit\n").status == 0)
        let push = try app.run(["notify", #"{"type": "session-revoked", "user": "alice"}"#])
        #expect(push.status == 0)
        #expect(push.output.contains("Delivered the notification to: user"))
        #expect(try app.run(["open", "shop://user/profile"]).output.contains("You are not signed in."))
        #expect(!(try app.run(["open", "shop://home"]).output.contains("Your cart is waiting")), "user.signed-out reached the cart")
        #expect(try app.run(["notify", "not json"]).status == 2)
    }

    @Test(.requires("product")) func aMemoryWarningDropsTheProductPagesKeptAlive() throws {
        var app = self.app
        app.environment["SHOP_LOG"] = "info"
        let run = try app.run([], input: "shop://product/1\nshop://product/2\nshop://product/3\nmemory-warning\nquit\n")
        #expect(run.output.contains("Told product that memory is short.") || run.output.contains("that memory is short."))
        #expect(run.error.contains("memory warning: caches dropped product-pages=2"), "\(run.error)")
    }

    @Test(.requires("product")) func aLinkInTheShapeOlderAppsSharedIsRewrittenBeforeRouting() throws {
        let run = try app.run(["open", "shop://item/3"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("== Pour-over Set =="))
    }

    @Test(.requires("home", "cart")) func theAppGoesToTheBackgroundOnceHoweverItEnds() throws {
        var app = self.app
        app.environment["SHOP_LOG"] = "debug"
        let delivered = "lifecycle event delivered event=background module=cart"
        let quitting = try AppSession(app)
        quitting.wait(for: "> ")
        try quitting.send("background")
        quitting.wait(for: "The App is in the background")
        #expect(try quitting.finish() == 0)
        #expect(quitting.logged.components(separatedBy: delivered).count == 2, "background, then the end of input: \(quitting.logged)")

        let interrupted = try AppSession(app)
        interrupted.wait(for: "> ")
        #expect(interrupted.interrupt() == 128 + SIGINT)
        #expect(interrupted.logged.components(separatedBy: delivered).count == 2, "Ctrl-C sends the App to the background: \(interrupted.logged)")
    }

    @Test(.requires("home")) func homeReadsItsLayoutAgainWhenTheAppComesToTheForeground() throws {
        let layout = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID()).json")
        try Data(#"{"title": "Sale", "sections": []}"#.utf8).write(to: layout)
        var app = self.app
        app.environment["SHOP_HOME_LAYOUT"] = layout.path
        let session = try AppSession(app)
        session.wait(for: "== Sale ==")
        try Data(#"{"title": "Spring", "sections": [{"kind": "banner", "text": "new"}, {"kind": "hologram"}]}"#.utf8).write(to: layout)
        try session.send("background")
        try session.send("foreground")
        session.wait(for: "== Spring ==")
        try session.send("background")
        try session.send("foreground")
        session.wait(for: "== Spring ==", count: 2)
        #expect(try session.finish() == 0)
        #expect(session.logged.contains("warning: home layout section skipped"), "the unknown section is skipped, the rest shows")
        #expect(session.logged.components(separatedBy: "home layout section skipped").count == 2, "once per new layout: \(session.logged)")
    }

    @Test(.requires("product", "cart", "order", "home")) func aModuleThatFailsToRegisterIsDisabledWithItsDependentsAndTheAppRuns() throws {
        var app = self.app
        app.environment["SHOP_FAIL_MODULE"] = "product"
        let page = try app.run(["open", "shop://product/1"])
        #expect(page.status == 0)
        #expect(page.output.hasPrefix("== Temporarily unavailable =="))
        #expect(page.error.contains("error: module disabled module=product reason=it failed to register: it fails on purpose (SHOP_FAIL_MODULE)"))
        #expect(page.error.contains("error: module disabled module=cart reason=its dependency 'product' is disabled"))
        #expect(try app.run(["open", "shop://cart"]).output.hasPrefix("== Temporarily unavailable =="), "a dependent's routes too")
        #expect(try app.run(["open", "shop://home"]).output.hasPrefix("== Shop =="), "everything else boots")
        let status = try app.run(["status"])
        #expect(status.status == 0)
        #expect(status.output.contains("DISABLED: it failed to register: it fails on purpose (SHOP_FAIL_MODULE)"))
        let routes = try app.run(["routes"]).output.split(separator: "\n")
        #expect(routes.contains { $0.hasPrefix("shop://product/<int:id>") && $0.hasSuffix("product (disabled: answers \"temporarily unavailable\")") })
        // A public route stays public while its module is disabled: a signed link from outside gets the same answer.
        let signing = try app.signingLinks()
        let signed = try signing.run(["sign", "shop://product/1"]).output.trimmingCharacters(in: .newlines)
        #expect(try signing.run(["open", "--external", signed]).output.hasPrefix("== Temporarily unavailable =="))
        // A degrade rule still applies to a disabled module's route.
        let table = FileManager.default.temporaryDirectory.appendingPathComponent("degrade-\(UUID()).json")
        try Data(#"{"rules": [{"pattern": "shop://product/<int:productID>", "target": "https://m.shop.example/p/{id}"}]}"#.utf8).write(to: table)
        app.environment["SHOP_DEGRADE_TABLE"] = table.path
        #expect(try app.run(["open", "shop://product/5"]).output.contains("The web container shows https://m.shop.example/p/5"))
    }

    @Test(.requires("cart", "order", "home")) func aModuleThatFailsToLaunchIsDisabledAfterRegistering() throws {
        var app = self.app
        app.environment["SHOP_FAIL_MODULE"] = "cart:launch"
        let run = try app.run(["open", "shop://cart"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("== Temporarily unavailable =="))
        #expect(run.error.contains("module=cart reason=it failed to launch: it fails on purpose"))
        if try AppProcess.componentNames().contains("product") {
            app.environment["SHOP_FAIL_MODULE"] = "product:launch"
            let status = try app.run(["status"]).output
            #expect(status.contains("DISABLED: it failed to launch: it fails on purpose"), "status waits for launch work after the first screen: \(status)")
        }
        app.environment["SHOP_FAIL_MODULE"] = "nothing"
        let wrong = try app.run(["open", "shop://home"])
        #expect(wrong.status == 2, "the shell's own settings are the one thing that stops a start")
        #expect(wrong.error.contains("SHOP_FAIL_MODULE names 'nothing', which is no module of this app"))
        app.environment["SHOP_FAIL_MODULE"] = "cart:"
        #expect(
            try app.run(["open", "shop://home"]).error.contains("SHOP_FAIL_MODULE is 'cart:'; it takes a module's name, then optionally :register or :launch"))
    }

    @Test(.requires("home")) func theStartupProfileListsEveryModuleAndTheFirstScreen() throws {
        let modules = try modules().map(\.name)
        let run = try app.run(["--profile-startup", "open", "shop://home"])
        #expect(run.status == 0)
        #expect(run.error.contains("Startup profile"))
        for module in modules { #expect(run.error.contains("\n  \(module) "), "\(module)") }
        #expect(run.error.contains("first screen after "))
        var profiled = app
        profiled.environment["SHOP_PROFILE"] = "1"
        #expect(try profiled.run([], input: "quit\n").error.contains("first screen after "))
    }

    @Test func eventsOfTheAppsOwnMustBeAnnouncedAndBadOnesAreRefused() throws {
        let unknown = try app.run(["event", "nobody.announces-this"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("neither built in nor announced by a module"))
        #expect(try app.run(["event"]).status == 2)
        #expect(try app.run(["event", "user.signed-out", "no-equals-sign"]).status == 2)
        let builtIn = try app.run(["event", "launch"])
        #expect(builtIn.status == 2)
        #expect(builtIn.error.contains("'launch' is a built-in lifecycle event: only the App itself sends it"))
    }

    @Test(.requires("product")) func degradeRulesMatchByShapeAndOnesThatMatchNothingAreReported() throws {
        var app = self.app
        let table = FileManager.default.temporaryDirectory.appendingPathComponent("degrade-\(UUID()).json")
        try Data(
            #"{"rules": [{"pattern": "shop://product/<int:productID>", "target": "https://m.shop.example/p/{id}"}, {"pattern": "shop://nowhere/:id", "target": "x"}]}"#
                .utf8
        ).write(to: table)
        app.environment["SHOP_DEGRADE_TABLE"] = table.path
        let run = try app.run(["open", "shop://product/2"])
        #expect(run.output.contains("The web container shows https://m.shop.example/p/2"))
        #expect(run.error.contains("warning: degrade rule matches no route pattern=shop://nowhere/:id"))
        #expect(run.error.contains("warning: degraded route pattern=shop://product/<int:id>"), "the observer sees the degrade hit")
    }

    @Test func theWebFallbackOpensTheSiteForLinksNothingOpens() throws {
        var app = self.app
        app.environment["SHOP_WEB_FALLBACK"] = "https://m.shop.example/"
        let run = try app.run(["open", "shop://nothing/here?x=1"])
        #expect(run.output.contains("The web container shows https://m.shop.example/nothing/here?x=1"))
        let climbing = try app.run(["open", "shop://nothing/../..%2F..%2Fadmin"])
        let external = try app.run(["open", "--external", "shop://nothing/here"])
        #expect(external.status == 1 && !external.output.contains("web container"), "a link from outside never reaches the fallback")
        #expect(climbing.output.contains("The web container shows https://m.shop.example/nothing/..%2F..%2Fadmin"), "no segment climbs out of the site")
        #expect(!(try self.app.run(["open", "shop://nothing/here"]).output.contains("web container")), "off by default")
        for bad in ["ftp://nope", "https://m.shop.example/?x=1", "https://m.shop.example/#top"] {
            app.environment["SHOP_WEB_FALLBACK"] = bad
            #expect(try app.run(["open", "shop://home"]).status == 2, "\(bad) is refused")
        }
    }
}
