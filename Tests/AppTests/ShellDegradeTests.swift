import Foundation
import Testing

/// The degrade table (NOTES_DEGRADE_TABLE, else the app's own) switches a route to a web page or another
/// route without a release; NOTES_WEB_FALLBACK opens the web site for links nothing in the app opens.
@Suite struct ShellDegradeTests {
    @Test func aDegradedRouteShowsTheWebContainerAndTheOtherRoutesStayNative() async throws {
        var app = InProcessApp()
        defer { app.remove() }
        let table = try app.write(
            #"{"rules": [{"pattern": "myapp://notes/<int:id>", "target": "https://m.notes.example/n/{id}", "reason": "broken"}]}"#, to: "degrade.json")
        #expect((await app.run(["open", "myapp://notes/4"])).output.hasPrefix("== Note 4 =="), "no table, no degrade")
        app.environment["NOTES_DEGRADE_TABLE"] = table.path
        let degraded = await app.run(["open", "myapp://notes/4"])
        #expect(degraded.status == 0)
        #expect(degraded.output.hasPrefix("== Web page =="), "\(degraded.output)")
        #expect(degraded.output.contains("The web container shows https://m.notes.example/n/4"), "\(degraded.output)")
        #expect(degraded.errors.contains("warning: degraded route pattern=myapp://notes/<int:id> reason=broken"), "the observer sees it: \(degraded.errors)")
        #expect(!degraded.errors.contains("matches no route"))
        #expect((await app.run(["open", "myapp://notes"])).output.hasPrefix("== Notes =="), "a route of another shape stays native")
        app.environment["NOTES_DEGRADE_TABLE"] = "file://" + table.path
        #expect((await app.run(["open", "myapp://notes/5"])).output.contains("https://m.notes.example/n/5"), "a file:// URL names the table too")
    }

    @Test func degradeRulesMatchByShapeAndOnesThatMatchNothingAreReported() async throws {
        var app = InProcessApp()
        defer { app.remove() }
        let table = try app.write(
            #"{"rules": [{"pattern": "myapp://notes/<int:noteID>", "target": "https://m.notes.example/n/{noteID}"}, {"pattern": "myapp://nowhere/:id", "target": "x"}]}"#,
            to: "degrade.json")
        app.environment["NOTES_DEGRADE_TABLE"] = table.path
        let run = await app.run(["open", "myapp://notes/2"])
        #expect(run.output.contains("The web container shows https://m.notes.example/n/2"), "another parameter name, the same shape: \(run.output)")
        #expect(run.errors.contains("warning: degrade rule matches no route pattern=myapp://nowhere/:id source=\(table.path)"), "\(run.errors)")
        #expect(!run.errors.contains("matches no route pattern=myapp://notes"), "\(run.errors)")
    }

    @Test func aRuleMayPointAtAnotherRouteOfTheApp() async throws {
        var app = InProcessApp()
        defer { app.remove() }
        app.environment["NOTES_DEGRADE_TABLE"] = try app.write(
            #"{"rules": [{"pattern": "myapp://notes/<int:id>", "target": "myapp://notes"}]}"#, to: "degrade.json"
        ).path
        let run = await app.run(["open", "myapp://notes/9"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("== Notes =="), "\(run.output)")
    }

    @Test func theAppsOwnDegradeTableAppliesUnlessTheSettingReplacesIt() async throws {
        var definition = ShellFixture.definition
        definition.degradeTable = #"{"rules": [{"pattern": "myapp://notes", "target": "https://m.notes.example/list"}]}"#
        var app = InProcessApp(definition)
        defer { app.remove() }
        #expect((await app.run(["open", "myapp://notes"])).output.contains("The web container shows https://m.notes.example/list"))
        app.environment["NOTES_DEGRADE_TABLE"] = try app.write(#"{"rules": []}"#, to: "empty.json").path
        #expect((await app.run(["open", "myapp://notes"])).output.hasPrefix("== Notes =="), "the setting's table replaces the app's")
    }

    @Test func aDegradeTableTheAppCannotUseStopsItWithTheReason() async throws {
        var app = InProcessApp()
        defer { app.remove() }
        for (text, reason) in [
            (#"{"rules": 3}"#, "it is not a degrade table"),
            (#"{"rules": [{"pattern": "not a pattern", "target": "x"}]}"#, "not a pattern"),
        ] {
            let table = try app.write(text, to: "degrade-\(UUID().uuidString).json")
            app.environment["NOTES_DEGRADE_TABLE"] = table.path
            let broken = await app.run(["open", "myapp://notes"])
            #expect(broken.status == 2, "\(text)")
            #expect(broken.errors.contains("error: the app cannot start: Degrade table '\(table.path)' is not usable"), "\(text): \(broken.errors)")
            #expect(broken.errors.contains(reason), "\(text): \(broken.errors)")
            #expect(broken.output.isEmpty)
        }
        let missing = app.folder.appendingPathComponent("missing.json").path
        app.environment["NOTES_DEGRADE_TABLE"] = missing
        let unreadable = await app.run(["open", "myapp://notes"])
        #expect(unreadable.status == 2)
        #expect(unreadable.errors.contains("Degrade table '\(missing)' is not usable: it cannot be read"), "\(unreadable.errors)")
    }

    @Test func theWebFallbackOpensTheSiteForInAppLinksNothingOpens() async throws {
        var app = try InProcessApp().signingLinks()
        defer { app.remove() }
        #expect((await app.run(["open", "myapp://nothing/here"])).output.hasPrefix("== Page not found =="), "off by default")
        app.environment["NOTES_WEB_FALLBACK"] = "https://m.notes.example/"
        let run = await app.run(["open", "myapp://nothing/here?x=1"])
        #expect(run.output.contains("The web container shows https://m.notes.example/nothing/here?x=1"), "\(run.output)")
        let climbing = await app.run(["open", "myapp://nothing/../..%2F..%2Fadmin"])
        #expect(
            climbing.output.contains("The web container shows https://m.notes.example/nothing/..%2F..%2Fadmin"), "no segment climbs out: \(climbing.output)")
        let external = await app.run(["open", "--external", await app.sign("myapp://nothing/here")])
        #expect(external.status == 1 && !external.output.contains("web container"), "a link from outside never reaches the fallback")
        #expect((await app.run(["open", "myapp://notes"])).output.hasPrefix("== Notes =="), "routes still open natively")
        for bad in ["ftp://nope", "https://m.notes.example/?x=1", "https://m.notes.example/#top"] {
            app.environment["NOTES_WEB_FALLBACK"] = bad
            let refused = await app.run(["open", "myapp://notes"])
            #expect(refused.status == 2, "\(bad) is refused")
            #expect(refused.errors.contains("NOTES_WEB_FALLBACK is '\(bad)'; it takes the web site's address"), "\(refused.errors)")
        }
    }
}
