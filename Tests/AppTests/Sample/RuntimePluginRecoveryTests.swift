import Foundation
import Testing

/// What keeps the App and its store whole when plugins, servers or people misbehave: an interrupt, two
/// installs at once, a trickling or wrong server, a store that cannot be written, and links nothing declares. Driven through the real binaries.
@Suite(.serialized, .requires("campaign", "product", "runtime-plugins"))
struct RuntimePluginRecoveryTests {
    let fixture: RuntimePluginFixture
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-plugin-recovery-\(UUID().uuidString)")

    init() throws { fixture = try RuntimePluginFixture.shared.get() }

    private func app(feed: String, timeout: Int = 3) throws -> AppProcess {
        AppProcess.withPlugins(try fixture.configuration(feed: feed, in: scratch.appendingPathComponent(UUID().uuidString), timeout: timeout))
    }

    /// An App with campaign 1.0.0 trusted (its page ran once) and 1.1.0 installed as the update the next start loads.
    private func appWaitingForTheUpdate(_ server: FeedServer, feed: URL) throws -> AppProcess {
        let app = try app(feed: server.url)
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("10% off everything"))
        try fixture.publish("1.1.0", to: feed)
        #expect(try app.run(["plugins", "update"]).status == 0)
        return app
    }

    @Test(arguments: [SIGINT, SIGHUP, SIGTERM]) func anInterruptOrAClosedTerminalEndsARunCleanly(signal: Int32) throws {
        let feed = try fixture.feed(["1.0.0"])
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try appWaitingForTheUpdate(server, feed: feed)
        let status = try app.runInteractive(until: "while the campaign lasts", typing: "shop://campaign/winter\n", then: signal)
        #expect(status == 128 + signal)
        let versions = app.dataDirectory.appendingPathComponent("plugins/versions/campaign")
        #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path) == ["1.1.0"], "1.1.0 ran once: the version it replaced is gone")
        for _ in 1...2 { _ = try app.runInteractive(until: "20% off everything", then: SIGKILL) }
        #expect(!(try app.run(["open", "shop://home"]).error.contains("crashed")), "a trusted version is on trial no more")
    }

    @Test func aReaderThatGoesAwayEndsNothingBadly() throws {
        let feed = try fixture.feed(["1.0.0"])
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try appWaitingForTheUpdate(server, feed: feed)
        // As `App | head -c 1`: the App's output pipe closes while it still writes.
        for _ in 1...2 {
            let process = try app.process([])
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = try output.fileHandleForReading.read(upToCount: 1)
            try output.fileHandleForReading.close()
            try input.fileHandleForWriting.write(contentsOf: Data("home\nhome\nquit\n".utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "no death by SIGPIPE")
        }
        #expect(!(try app.run(["open", "shop://home"]).error.contains("crashed")))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.1.0\n")
    }

    @Test func twoInstallsAtOnceBothSucceed() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        let results = try [app.start(["plugins", "install", "campaign"]), app.start(["plugins", "install", "campaign"])].map { try $0() }
        for result in results { #expect(result.status == 0, "\(result.error)") }
        #expect(results.contains { $0.output.contains("Installed campaign 1.0.0") })
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.0.0\n")
        let downloads = app.dataDirectory.appendingPathComponent("plugins/downloads")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).isEmpty)
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("Winter sale"))
    }

    @Test(arguments: [
        ("trickle", "the server sends too slowly"), ("html", "not JSON but an HTML page"),
        ("html-archive", "is an HTML page (57 bytes), not the"), ("redirect-loop", "the server's redirects never reach the file"),
    ])
    func aServerThatTricklesOrAnswersWithAPageIsRefusedWithTheReason(mode: String, reason: String) throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]), mode: mode)
        defer { server.stop() }
        let app = try app(feed: server.url, timeout: 2)
        let install = try app.run(["plugins", "install", "campaign"])
        #expect(install.status == 1)
        #expect(install.error.contains(reason), "\(install.error)")
        // The index and its signature, each asked once (with 5 redirects followed): no retry of what cannot change.
        #expect(server.requests.count <= 12, "\(server.requests)")
        #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"))
    }

    @Test func linksNothingDeclaresDoNotAskTheFeedEachTime() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        for link in ["shop://typo", "shop://other/typo"] {
            #expect(try app.run(["open", link]).output.contains("Page not found"))
        }
        #expect(server.requests.filter { $0.hasPrefix("/index.json") }.count == 1, "the second answer came from the index fetched first: \(server.requests)")

        let silent = try FeedServer(try fixture.feed(["1.0.0"]), mode: "stall-all")
        defer { silent.stop() }
        let silentApp = try self.app(feed: silent.url, timeout: 2)
        let session = try silentApp.run([], input: "shop://typo\nshop://other/typo\nquit\n")
        #expect(session.output.components(separatedBy: "Page not found").count == 3)
        #expect(session.error.contains("not asked again for a minute"), "the second link does not wait for a feed that just failed: \(session.error)")
        let asked = silent.requests.count
        let later = try silentApp.run(["open", "shop://third/typo"])
        #expect(later.error.contains("not asked again for a minute"), "a later run remembers the silent feed: \(later.error)")
        #expect(silent.requests.count == asked)
    }

    @Test func commandsThatNeedNothingFromTheFeedDoNotAskIt() throws {
        let nobody = try app(feed: "http://127.0.0.1:9/")
        let update = try nobody.run(["plugins", "update"])
        #expect(update.status == 0)
        #expect(update.output.contains("No runtime plugins are installed"), "\(update.error)")
        #expect(try nobody.run(["plugins", "update", "../x"]).status == 2, "a malformed id is a usage error, as for install")
        #expect(try nobody.run(["plugins", "remove", "../../etc"]).status == 2)
        let notInstalled = try nobody.run(["plugins", "update", "campaign"])
        #expect(notInstalled.status == 1)
        #expect(notInstalled.error.contains("'campaign' is not installed"))
        var slow = nobody
        slow.environment["SHOP_PLUGIN_TIMEOUT"] = "abc"
        let timeout = try slow.run(["plugins", "list"])
        #expect(timeout.status == 2)
        #expect(timeout.error.contains("SHOP_PLUGIN_TIMEOUT is 'abc'; it takes the seconds a download may stall"))
        slow.environment["SHOP_PLUGIN_TIMEOUT"] = nil
        slow.environment["SHOP_PLUGIN_FEED"] = "http://"
        #expect(try slow.run(["plugins", "available"]).error.contains("is no http://, https:// or file:// URL of a folder"))

        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        let again = try app.run(["plugins", "install", "campaign@1.0.0"])
        #expect(again.output == "campaign 1.0.0 is installed already.\n", "\(again.error)")
        #expect(server.requests.filter { $0.hasSuffix(".tar") }.count == 1, "nothing downloaded twice: \(server.requests)")
        #expect(try app.run(["plugins", "list"]).output.contains("held (installed by version"))
    }

    @Test func aStoreThatCannotBeWrittenIsRefusedWithTheReasonAndTheAppRuns() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        try FileManager.default.createDirectory(at: app.dataDirectory, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: app.dataDirectory.appendingPathComponent("plugins"))
        let install = try app.run(["plugins", "install", "campaign"])
        #expect(install.status == 1)
        #expect(install.error.contains("plugins cannot be written (it is a file, not a folder)"), "\(install.error)")
        let available = try app.run(["plugins", "available"])
        #expect(available.output.contains("campaign 1.0.0"), "listing needs no store: \(available.error)")
        let open = try app.run(["open", "shop://campaign/winter"])
        #expect(open.status == 0)
        #expect(!open.output.contains("Winter sale"))
        #expect(open.output.contains("could not be installed: the plugin store"), "the first tap says why: \(open.output)")
    }
}

extension AppProcess {
    /// Runs the App's interactive shell, `typing` its input, until its output holds `marker`, then sends it `signal` and waits;
    /// returns its exit status (the signal's number when it died of it).
    func runInteractive(until marker: String, typing: String = "", then signal: Int32) throws -> Int32 {
        let process = try process([])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        if !typing.isEmpty { try input.fileHandleForWriting.write(contentsOf: Data(typing.utf8)) }
        // A watchdog: an App that never shows the marker is killed, which ends the reading below.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(marker) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        watchdog.cancel()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(String(decoding: seen, as: UTF8.self).contains(marker), "the App never showed '\(marker)'")
        return process.terminationStatus
    }

    /// Starts the App with `arguments` at once and returns a function that waits for its result.
    func start(_ arguments: [String]) throws -> () throws -> Result {
        let process = try process(arguments)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return {
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
        }
    }
}
