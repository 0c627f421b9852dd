import Foundation
import PluginFeed
import Testing

/// The runtime plugin's whole path, driven through the real binaries: `componentctl plugin pack/publish`,
/// a feed served over HTTP on loopback, and `App` installing, loading, updating and refusing.
@Suite(.serialized, .requires("campaign", "product", "runtime-plugins"))
struct RuntimePluginTests {
    let fixture: RuntimePluginFixture
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-plugin-tests-\(UUID().uuidString)")

    init() throws { fixture = try RuntimePluginFixture.shared.get() }

    private func app(feed: String) throws -> AppProcess {
        AppProcess.withPlugins(try fixture.configuration(feed: feed, in: scratch.appendingPathComponent(UUID().uuidString)))
    }

    @Test func openingACampaignLinkInstallsThePluginFirstThenItLoadsAtEveryStart() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        let first = try app.run(["open", "shop://campaign/winter"])
        #expect(first.status == 0)
        #expect(first.output.contains("== Winter sale =="))
        #expect(first.output.contains("10% off everything"))
        #expect(first.error.contains("Installing plugin campaign"))
        let page = try app.run(["open", "shop://product/1"])
        #expect(page.output.contains("10% off:"), "the plugin's section reaches the product page, a container of the App")
        #expect(try app.run(["routes"]).output.contains("campaign"))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.0.0\n")
        // One copy of the shared modules: the plugin's event reaches Home, the App's review event reaches the plugin.
        #expect(try app.run(["open", "shop://home"]).output.contains("Winter sale: 10% off everything"))
        let session = try app.run([], input: "shop://product/1\nshop://product/1/reviews/new?rating=5&text=Good\nback\nquit\n")
        #expect(session.output.contains("Thanks for your review: it enters you in the winter sale draw."), "\(session.output)")
    }

    @Test func theInteractiveShellInstallsAndTheLinkOpensInTheSameSession() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        let session = try app.run([], input: "plugins available\nplugins install campaign\nplugins list\nshop://campaign/winter\nquit\n")
        #expect(session.output.contains("campaign 1.0.0 ("))
        #expect(session.output.contains("Installed campaign 1.0.0"))
        #expect(session.output.contains("== Winter sale =="), "installed now, loaded when first needed")
    }

    @Test func aLinkNoPluginDeclaresGetsTheNormalFallback() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        let result = try app(feed: server.url).run(["open", "shop://nothing/here"])
        #expect(result.output.contains("Page not found"))
        #expect(!result.error.contains("Installing"))
    }

    @Test func anUpdateLoadsAtTheNextStartAndABadVersionIsRolledBack() throws {
        let feed = try fixture.feed(["1.0.0"])
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try app(feed: server.url)
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        try fixture.publish("1.1.0", to: feed)
        let update = try app.run(["plugins", "update"])
        #expect(update.output.contains("Updated campaign 1.0.0 -> 1.1.0; it loads at the next start."))
        #expect(try app.run(["plugins", "list"]).output.contains("update to 1.1.0 loads at the next start"))
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("20% off everything"))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.1.0\n")

        // 1.3.0 registers a route its manifest does not declare: refused at load, 1.1.0 loads instead.
        try fixture.publish("1.3.0", to: feed)
        #expect(try app.run(["plugins", "update"]).status == 0)
        let refused = try app.run(["open", "shop://campaign/winter"])
        #expect(refused.output.contains("20% off everything"))
        #expect(refused.error.contains("tried to register the route shop://sneaky, which its manifest does not declare"))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.1.0, marked bad: 1.3.0\n")
        #expect(try app.run(["open", "shop://sneaky"]).output.contains("Page not found"), "nothing of the refused version stays registered")

        // 1.2.0 crashes the App while loading: twice, then it is marked bad and 1.1.0 is used again.
        try fixture.publish("1.2.0", to: feed)
        #expect(try app.run(["plugins", "install", "campaign@1.2.0"]).status == 0)
        #expect(try app.run(["open", "shop://home"]).status != 0)
        #expect(try app.run(["open", "shop://home"]).status != 0)
        let recovered = try app.run(["open", "shop://campaign/winter"])
        #expect(recovered.status == 0)
        #expect(recovered.output.contains("20% off everything"))
        #expect(recovered.error.contains("crashed the App twice inside its own code"))
        #expect(try app.run(["plugins", "list"]).output == "campaign 1.1.0, marked bad: 1.3.0, 1.2.0\n")

        // Going back needs the version named; update never moves down.
        #expect(try app.run(["plugins", "update"]).output == "Everything is up to date.\n")
        #expect(try app.run(["plugins", "install", "campaign@1.0.0"]).status == 0)
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("10% off everything"))
        #expect(try app.run(["plugins", "remove", "campaign"]).output == "Removed campaign.\n")
        #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"))
    }

    @Test func aLinkOfAPluginWithNoFittingVersionSaysWhy() throws {
        let server = try FeedServer(try fixture.feed(["1.4.0"]))
        defer { server.stop() }
        let open = try app(feed: server.url).run(["open", "shop://campaign/winter"])
        #expect(open.status == 0)
        #expect(open.output.contains("== Plugin not installed =="), "\(open.output)")
        #expect(open.output.contains("no version of the plugin 'campaign' in the feed fits this App: 1.4.0 is built against router 1.1.0"))
    }

    @Test func aPluginWhoseFeatureIsDisabledIsTemporarilyUnavailable() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        var app = try app(feed: server.url)
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        app.environment["SHOP_FAIL_MODULE"] = "product"
        let open = try app.run(["open", "shop://campaign/winter"])
        #expect(open.status == 0, "\(open.error)")
        #expect(open.output.contains("== Temporarily unavailable =="), "the campaign's products come from the disabled product module: \(open.output)")
    }

    @Test func theLibraryShipsNoPathOfThePackingMachine() throws {
        let archive = try Data(contentsOf: fixture.archive("1.0.0"))
        #expect(archive.range(of: Data(fixture.folder.path.utf8)) == nil, "the workspace clone's folder is written as '.'")
    }

    @Test func aPluginBuiltAgainstAnotherHostAPIIsRefusedWithTheReason() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0", "1.4.0"]))
        defer { server.stop() }
        let app = try app(feed: server.url)
        let available = try app.run(["plugins", "available"]).output
        #expect(available.contains("campaign 1.4.0"))
        #expect(available.contains("cannot load here: built against router 1.1.0 with content "), "\(available)")
        let refused = try app.run(["plugins", "install", "campaign@1.4.0"])
        #expect(refused.status == 1)
        #expect(refused.error.contains(", the App has router 1.0.0 with content "), "\(refused.error)")
        #expect(try app.run(["plugins", "install", "campaign"]).output.contains("Installed campaign 1.0.0"), "the newest version that fits")
    }

    @Test func tamperedFeedsAreRefusedAndTheAppKeepsRunning() throws {
        let key = try fixture.signingKey()
        var cases: [(String, URL, String)] = []
        // An archive changed after publishing.
        let tampered = try fixture.feed(["1.0.0"])
        let archive = tampered.appendingPathComponent("plugins/campaign/campaign-1.0.0.tar")
        var bytes = try Data(contentsOf: archive)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: archive)
        cases.append(("tampered archive", tampered, "is not the one the signed index describes"))
        // An index changed after signing.
        let edited = try fixture.feed(["1.0.0"])
        let index = edited.appendingPathComponent(FeedIndex.fileName)
        try (try Data(contentsOf: index) + Data(" ".utf8)).write(to: index)
        cases.append(("wrong signature", edited, "does not match its contents"))
        // A feed signed by a key the App does not trust.
        let unknown = try fixture.feed(["1.0.0"])
        try resign(unknown, with: try PluginSigningKey(fileContents: String(contentsOf: fixture.otherKey, encoding: .utf8)), trusted: key)
        cases.append(("unknown key", unknown, "which this app does not trust"))
        // A signed index that is no index.
        let malformed = try fixture.feed(["1.0.0"])
        let garbage = Data(#"{"format": 1, "plugins": "none"}"#.utf8)
        try garbage.write(to: malformed.appendingPathComponent(FeedIndex.fileName))
        try key.sign(garbage).write(to: malformed.appendingPathComponent(FeedIndex.signatureName))
        cases.append(("malformed index", malformed, "the feed's index is not valid"))
        // A manifest, properly signed, that lies about its library's hash.
        let lying = try fixture.feed(["1.0.0"])
        try resign(lying, with: key, trusted: key, changingTheLibrary: true)
        cases.append(("lying manifest", lying, "the library was changed after signing"))

        for (name, feed, reason) in cases {
            let server = try FeedServer(feed)
            defer { server.stop() }
            let app = try app(feed: server.url)
            let install = try app.run(["plugins", "install", "campaign"])
            #expect(install.status == 1, "\(name)")
            #expect(install.error.contains(reason), "\(name): \(install.error)")
            let open = try app.run(["open", "shop://campaign/winter"])
            #expect(open.status == 0, "\(name): the App keeps running")
            #expect(!open.output.contains("Winter sale"), "\(name)")
            #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"), "\(name)")
        }
    }

    /// Signs `feed`'s archive and index again with `key` (after changing a byte of the library, when asked),
    /// the way only the holder of that key could.
    private func resign(_ feed: URL, with key: PluginSigningKey, trusted: PluginSigningKey, changingTheLibrary: Bool = false) throws {
        let archiveURL = feed.appendingPathComponent("plugins/campaign/campaign-1.0.0.tar")
        var files = try PluginArchive(decoding: try Data(contentsOf: archiveURL)).files
        let manifest = try PluginManifest.decode(try #require(files[PluginArchive.manifestName]), what: "manifest")
        if changingTheLibrary {
            var library = try #require(files[manifest.library])
            library[library.count / 2] ^= 0x01
            files[manifest.library] = library
        }
        let manifestData = try manifest.encoded()
        files[PluginArchive.manifestName] = manifestData
        files[PluginArchive.signatureName] = try key.sign(manifestData)
        let archive = try PluginArchive(files: files).encoded()
        try archive.write(to: archiveURL)
        var index = try FeedIndex.verified(
            try Data(contentsOf: feed.appendingPathComponent(FeedIndex.fileName)),
            signature: try Data(contentsOf: feed.appendingPathComponent(FeedIndex.signatureName)), keys: try TrustedKeys([trusted.publicKey]))
        index.plugins["campaign"] = [
            FeedIndex.Release(
                version: "1.0.0", archive: "plugins/campaign/campaign-1.0.0.tar", size: archive.count, sha256: Digest.sha256(archive), manifest: manifest)
        ]
        let indexData = try FeedJSON.encode(index)
        try indexData.write(to: feed.appendingPathComponent(FeedIndex.fileName))
        try key.sign(indexData).write(to: feed.appendingPathComponent(FeedIndex.signatureName))
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskFailsTheInstallAndLeavesTheStoreAsItWas() throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]))
        defer { server.stop() }
        var app = try app(feed: server.url)
        let disk = scratch.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try RuntimePluginFixture.run("/usr/bin/env", ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.path])
        defer { try? RuntimePluginFixture.run("/usr/bin/env", ["umount", disk.path]) }
        app.dataDirectory = disk
        #expect(try app.run(["open", "shop://home"]).status == 0)
        // Room for half the download.
        let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: disk.path)[.systemFreeSize] as? Int)
        let archiveSize = try Data(contentsOf: fixture.archive("1.0.0")).count
        try Data(count: max(0, free - archiveSize / 2)).write(to: disk.appendingPathComponent("filler"))
        let before = try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted()
        let install = try app.run(["plugins", "install", "campaign"])
        #expect(install.status == 1)
        #expect(install.error.contains("No space left on device"), "\(install.error)")
        #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"))
        let open = try app.run(["open", "shop://product/1"])
        #expect(open.status == 0)
        #expect(!open.output.contains("off:"))
        let leftovers = (FileManager.default.enumerator(atPath: disk.appendingPathComponent("plugins").path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".so") || $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty, "nothing of the failed install stays: \(leftovers)")
        #expect(Set(before).isSubset(of: try FileManager.default.contentsOfDirectory(atPath: disk.path)))
    }

    @Test func aReplayedOlderIndexIsRefused() throws {
        let feed = try fixture.feed(["1.0.0"])
        let old = (
            try Data(contentsOf: feed.appendingPathComponent(FeedIndex.fileName)), try Data(contentsOf: feed.appendingPathComponent(FeedIndex.signatureName))
        )
        try fixture.publish("1.1.0", to: feed)
        let server = try FeedServer(feed)
        defer { server.stop() }
        let app = try app(feed: server.url)
        #expect(try app.run(["plugins", "available"]).status == 0)
        let installer = try self.app(feed: server.url)
        #expect(try installer.run(["plugins", "install", "campaign@1.0.0"]).status == 0, "an install records the index it came from")
        try old.0.write(to: feed.appendingPathComponent(FeedIndex.fileName))
        try old.1.write(to: feed.appendingPathComponent(FeedIndex.signatureName))
        for (app, command) in [(app, ["plugins", "install", "campaign"]), (installer, ["plugins", "update"])] {
            let replayed = try app.run(command)
            #expect(replayed.status == 1)
            #expect(replayed.error.contains("older (sequence 1) than one this App has already seen (sequence 2)"), "\(replayed.error)")
        }
    }

    @Test(arguments: [
        ("404", "the server answered 404"), ("stall", "timed out"), ("truncate", "failed"),
    ])
    func aMisbehavingServerFailsTheInstallWithTheReason(mode: String, reason: String) throws {
        let feed = try fixture.feed(["1.0.0"])
        let server = try FeedServer(feed, mode: mode)
        defer { server.stop() }
        let app = try app(feed: server.url)
        let install = try app.run(["plugins", "install", "campaign"])
        #expect(install.status == 1)
        #expect(install.error.contains(reason), "\(install.error)")
        #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"))
        let open = try app.run(["open", "shop://campaign/winter"])
        #expect(open.status == 0, "the App keeps running")
    }

    @Test(arguments: ["500-twice", "truncate-once", "no-range", "redirect"])
    func transientFailuresAreRetriedAndResumed(mode: String) throws {
        let server = try FeedServer(try fixture.feed(["1.0.0"]), mode: mode)
        defer { server.stop() }
        let app = try app(feed: server.url)
        let install = try app.run(["plugins", "install", "campaign"])
        #expect(install.status == 0, "\(install.error)")
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("Winter sale"))
    }

    @Test func emptyIdsAreUsageErrorsAndALinkFromOutsideNeverInstalls() throws {
        let app = try app(feed: try fixture.feed(["1.0.0"]).absoluteString)
        for argument in ["", "@", "@@", "campaign@", "@1.0.0"] {
            let run = try app.run(["plugins", "install", argument])
            #expect(run.status == 2, "install '\(argument)': \(run.error)")
            #expect(run.error.contains("install takes a plugin id"))
        }
        let external = try app.run(["open", "--external", "shop://campaign/winter"])
        #expect(!external.error.contains("Installing plugin"), "\(external.error)")
        #expect(try app.run(["plugins", "list"]).output.contains("No runtime plugins are installed"))
        var broken = app
        broken.environment["SHOP_PLUGIN_FEED"] = "ftp://example.com/"
        let start = try broken.run(["open", "shop://home"])
        #expect(start.status == 0)
        #expect(start.error.contains("warning: runtime plugins are off in this start"), "\(start.error)")
    }

    @Test func aStartWithAnotherKeyLeavesThePluginOutAndKeepsIt() throws {
        let feed = try fixture.feed(["1.0.0"]).absoluteString
        var app = try app(feed: feed)
        #expect(try app.run(["plugins", "install", "campaign"]).status == 0)
        let trusted = app.environment["SHOP_PLUGIN_CONFIG"]
        let other = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let config = other.appendingPathComponent("plugin-feed.json")
        try Data(#"{"feed": null, "keys": []}"#.utf8).write(to: config)
        app.environment["SHOP_PLUGIN_CONFIG"] = config.path
        let start = try app.run(["open", "shop://home"])
        #expect(start.status == 0)
        #expect(start.error.contains("is left out: it is signed by a key"), "\(start.error)")
        app.environment["SHOP_PLUGIN_CONFIG"] = trusted
        #expect(!(try app.run(["plugins", "list"]).output.contains("marked bad")))
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("Winter sale"))
    }

    @Test func aFileFeedWorksWithoutAServer() throws {
        let app = try app(feed: try fixture.feed(["1.0.0"]).absoluteString)
        #expect(try app.run(["open", "shop://campaign/winter"]).output.contains("Winter sale"))
    }
}
