import Foundation
import Testing

/// Links from outside the app (`open --external`) on the fixture app: each must carry a valid signature
/// from a key the app trusts (NOTES_LINK_KEYS), made by `sign` (NOTES_LINK_SIGNING_KEY), and reach a public route.
@Suite struct ShellExternalLinkTests {
    /// Notes (`myapp://notes/<int:id>` public, `myapp://notes` not) and reminders (`myapp://reminders` public).
    private func app() throws -> InProcessApp {
        try InProcessApp(ShellFixture.definition(adding: [ShellFixture.RemindersModule(), ShellFixture.JournalModule()])).signingLinks()
    }

    @Test func aSignedLinkToAPublicRouteOpensFromOutsideAndAnUnsignedOneIsRefused() async throws {
        let app = try app()
        defer { app.remove() }
        let unsigned = await app.run(["open", "--external", "myapp://notes/1"])
        #expect(unsigned.status == 1)
        #expect(unsigned.errors.contains("The external link 'myapp://notes/1' is refused: it carries no signature"), "\(unsigned.errors)")
        #expect(unsigned.output.isEmpty, "no screen opens")
        let inApp = await app.run(["open", "myapp://notes/1"])
        #expect(inApp.status == 0 && inApp.output.hasPrefix("== Note 1 =="), "a link inside the app needs no signature: \(inApp.output)")

        let signed = await app.sign("myapp://notes/1", ["--lifetime", "60"])
        #expect(signed.hasPrefix("myapp://notes/1?exp="), "\(signed)")
        #expect(signed.contains("&sig="))
        let opened = await app.run(["open", "--external", signed])
        #expect(opened.status == 0, "\(opened.errors)")
        #expect(opened.output.hasPrefix("== Note 1 =="), "\(opened.output)")
        #expect((await app.run(["open", "--external", signed])).status == 0, "a link that is not one-time opens again")
        let reminders = await app.run(["open", "--external", await app.sign("myapp://reminders")])
        #expect(reminders.output.hasPrefix("== Reminders =="), "another module's public route: \(reminders.errors)")
    }

    @Test func aTamperedLinkOrOneSignedByAKeyTheAppDoesNotTrustIsRefused() async throws {
        let app = try app()
        defer { app.remove() }
        let signed = await app.sign("myapp://notes/1")
        let tampered = await app.run(["open", "--external", signed.replacingOccurrences(of: "notes/1", with: "notes/2")])
        #expect(tampered.status == 1)
        #expect(tampered.errors.contains("its signature does not match"), "\(tampered.errors)")
        #expect(!tampered.output.contains("Note 2"))

        var otherKey = app
        otherKey.environment["NOTES_LINK_KEYS"] = try TestSigningKey().publicKey
        let untrusted = await otherKey.run(["open", "--external", signed])
        #expect(untrusted.status == 1)
        #expect(untrusted.errors.contains("which this app does not trust"), "\(untrusted.errors)")

        var noKeys = app
        noKeys.environment["NOTES_LINK_KEYS"] = nil
        let shipped = await noKeys.run(["open", "--external", signed])
        #expect(shipped.status == 1, "the App ships trusting no key")
        #expect(shipped.errors.contains("which this app does not trust"), "\(shipped.errors)")
        #expect(shipped.errors.contains("warning: refused external link"), "the observer logs it: \(shipped.errors)")
    }

    @Test func aLinkThatOpensOnceIsRefusedWhenReplayed() async throws {
        let app = try app()
        defer { app.remove() }
        let once = await app.sign("myapp://notes/3", ["--once"])
        #expect(once.contains("once="), "\(once)")
        let first = await app.run(["open", "--external", once])
        #expect(first.status == 0 && first.output.hasPrefix("== Note 3 =="), "\(first.errors)")
        let replayed = await app.run(["open", "--external", once])
        #expect(replayed.status == 1)
        #expect(replayed.errors.contains("it opens once, and it was opened before"), "\(replayed.errors)")
        #expect(replayed.errors.contains("warning: refused external link"), "the observer logs it")
        #expect(replayed.output.isEmpty)
        #expect((await app.run(["open", "--external", await app.sign("myapp://notes/3", ["--once"])])).status == 0, "a new one-time link opens")
    }

    @Test func aSignedLinkToARouteThatIsNotPublicIsRefused() async throws {
        let app = try app()
        defer { app.remove() }
        let internalLink = await app.sign("myapp://notes")
        let refused = await app.run(["open", "--external", internalLink])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("is not a public route, so a deep-link link cannot open it"), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        #expect((await app.run(["open", "myapp://notes"])).output.hasPrefix("== Notes =="), "inside the app it opens")
        let nowhere = await app.run(["open", "--external", await app.sign("myapp://nowhere/1")])
        #expect(nowhere.status == 1, "a signed link that matches no route opens nothing, not even the fallback")
        #expect(!nowhere.output.contains("Page not found"))
    }

    @Test func signRefusesWhatItCannotSign() async throws {
        let app = try app()
        defer { app.remove() }
        let notAURL = await app.run(["sign", "not a url"])
        #expect(notAURL.status == 2)
        #expect(notAURL.errors.contains("Invalid URL 'not a url'"), "\(notAURL.errors)")
        for lifetime in ["inf", "1e300", "0", "-5", "nan", "0.5"] {
            #expect((await app.run(["sign", "myapp://notes/1", "--lifetime", lifetime])).status == 2, "\(lifetime)")
        }
        var keyless = app
        keyless.environment["NOTES_LINK_SIGNING_KEY"] = nil
        let refused = await keyless.run(["sign", "myapp://notes/1"])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("signing a link needs the private key: --key FILE or NOTES_LINK_SIGNING_KEY"), "\(refused.errors)")
        let key = try TestSigningKey.shared.get().file.path
        let withKey = await keyless.run(["sign", "myapp://notes/1", "--key", key])
        #expect(withKey.status == 0 && withKey.output.hasPrefix("myapp://notes/1?exp="), "--key names the key instead: \(withKey.errors)")
        keyless.environment["NOTES_LINK_SIGNING_KEY"] = app.folder.appendingPathComponent("no-such.key").path
        #expect((await keyless.run(["sign", "myapp://notes/1"])).errors.contains("cannot be read"))
    }
}
