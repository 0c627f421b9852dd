import Foundation
import PluginFeed
import Router
import RuntimePlugins
import Synchronization
import Testing

/// A feed folder written with PluginFeed: plugin `banner` (or `id`) at the given versions, a library that is
/// no shared object (so loading it fails the way a broken build does).
private struct TestFeed {
    var id = "banner"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
    let key = PluginSigningKey()
    static let host = HostAPI(versions: ["router": "1.0.0"], keys: ["router": "router-content-1"], swiftRuntime: "runtime-a")

    /// Publishes the plugin at `versions`; `library` replaces the library that is no shared object.
    func publish(_ versions: [String], hostAPI: [String: String] = ["router": "1.0.0"], sequence: Int? = nil, library real: Data? = nil) throws {
        var index = FeedIndex(sequence: sequence ?? versions.count)
        for version in versions {
            let library = real ?? Data("not an ELF file, version \(version)".utf8)
            let manifest = PluginManifest(
                id: id, version: version, entry: "\(id)_plugin_entry", library: "libBanner.so", sha256: Digest.sha256(library), size: library.count,
                contributions: [.init(point: "shelf-interface/badges", plugin: id)], routes: ["app://\(id)/:name"], hostAPI: hostAPI,
                hostKeys: hostAPI.mapValues { "router-content-\($0.prefix(1))" }, swift: "6.3.1", swiftRuntime: "runtime-a")
            let manifestData = try manifest.encoded()
            let archive = try PluginArchive(files: [
                PluginArchive.manifestName: manifestData, PluginArchive.signatureName: try key.sign(manifestData), "libBanner.so": library,
            ]).encoded()
            let path = "plugins/\(id)/\(id)-\(version).tar"
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("plugins/\(id)"), withIntermediateDirectories: true)
            try archive.write(to: folder.appendingPathComponent(path))
            index.plugins[id, default: []].append(
                FeedIndex.Release(version: version, archive: path, size: archive.count, sha256: Digest.sha256(archive), manifest: manifest))
        }
        let data = try FeedJSON.encode(index)
        try data.write(to: folder.appendingPathComponent(FeedIndex.fileName))
        try key.sign(data).write(to: folder.appendingPathComponent(FeedIndex.signatureName))
    }

    func manager(store: URL, reports: Reports? = nil, checkpoint: @escaping @Sendable (String) -> Void = { _ in }) throws -> RuntimePluginManager {
        RuntimePluginManager(
            store: PluginStore(folder: store, checkpoint: checkpoint), configuration: FeedConfiguration(feed: folder, keys: try TrustedKeys([key.publicKey])),
            host: Self.host,
            report: { line in reports?.append(line) })
    }
}

/// What a manager reported, line by line.
private final class Reports: Sendable {
    private let storage = Mutex<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}

private func storeFolder() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)") }

@Test func aFirstInstallIsCurrentAndAnUpdateWaitsForTheNextStart() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let manager = try feed.manager(store: storeFolder())
    #expect(try await manager.install("banner") == InstallResult(id: "banner", version: "1.0.0", change: .installed))
    #expect(try manager.installed().map { $0.current } == ["1.0.0"])
    try feed.publish(["1.0.0", "1.1.0"], sequence: 2)
    #expect(try await manager.update() == [.updated(id: "banner", from: "1.0.0", to: "1.1.0")])
    let installed = try #require(try manager.installed().first)
    #expect(installed.current == "1.0.0")
    #expect(installed.pending == "1.1.0")
    let folders = try FileManager.default.contentsOfDirectory(atPath: manager.store.folder.appendingPathComponent("versions/banner").path).sorted()
    #expect(folders == ["1.0.0", "1.1.0"], "the previous version stays until the new one has loaded once")
}

@Test func aLibraryThatDoesNotLoadIsMarkedBadAndTheAppGoesOn() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let reports = Reports()
    let manager = try feed.manager(store: storeFolder(), reports: reports)
    try await manager.install("banner")
    let modules = manager.loadInstalled(into: Router())
    #expect(modules.isEmpty)
    #expect(reports.lines.contains { $0.contains("banner 1.0.0 failed to load and is marked bad: the library does not load") })
    #expect(try manager.installed().first?.bad == ["1.0.0"])
    #expect(try manager.installed().first?.current == nil)
    #expect(!FileManager.default.fileExists(atPath: manager.store.versionFolder("banner", "1.0.0").path), "a bad version's files are removed")
}

@Test func updatesNeverGoDownButANamedVersionMay() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0", "1.1.0"])
    let manager = try feed.manager(store: storeFolder())
    #expect(try await manager.install("banner").version == "1.1.0")
    #expect(try await manager.update() == [])
    #expect(try await manager.install("banner", version: "1.0.0") == InstallResult(id: "banner", version: "1.0.0", change: .waiting))
    #expect(try manager.installed().first?.pending == "1.0.0")
    await #expect(throws: FeedError.self) { _ = try await manager.install("banner", version: "9.9.9") }
    await #expect(throws: FeedError.self) { _ = try await manager.install("other") }
}

@Test func anOlderIndexThanOneSeenIsAReplay() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"], sequence: 5)
    let manager = try feed.manager(store: storeFolder())
    _ = try await manager.index()
    try feed.publish(["1.0.0"], sequence: 4)
    let error = await #expect(throws: FeedError.self) { try await manager.index() }
    #expect(error?.message.contains("older (sequence 4) than one this App has already seen (sequence 5)") == true)
}

@Test func aPluginForAnotherHostAPIIsLeftOutNotMarkedBad() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    try await feed.manager(store: store).install("banner")
    let reports = Reports()
    let newerApp = RuntimePluginManager(
        store: PluginStore(folder: store), configuration: FeedConfiguration(feed: feed.folder, keys: try TrustedKeys([feed.key.publicKey])),
        host: HostAPI(versions: ["router": "2.0.0"], keys: ["router": "router-content-2"], swiftRuntime: "runtime-a"),
        report: { line in reports.append(line) })
    #expect(newerApp.loadInstalled(into: Router()).isEmpty)
    #expect(reports.lines.contains { $0.contains("built against router 1.0.0 with content router-conte, the App has router 2.0.0") })
    #expect(try newerApp.installed().first?.bad == [])
    #expect(try newerApp.installed().first?.current == "1.0.0")
}

/// A store with banner 1.0.0 installed and 1.1.0 waiting as its update, from a feed of both.
private func bannerWithAnUpdate() async throws -> (feed: TestFeed, store: URL, manager: RuntimePluginManager) {
    let feed = TestFeed()
    try feed.publish(["1.0.0", "1.1.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner", version: "1.0.0")
    try await manager.install("banner", version: "1.1.0")
    return (feed, store, manager)
}

@Test func aVersionWhoseRunsDiedTwiceIsMarkedBadAndThePreviousOneIsTried() async throws {
    let (feed, store, manager) = try await bannerWithAnUpdate()
    // As two starts that loaded 1.1.0 and died leave the state: marks of processes that are gone.
    try editState(in: store) { banner in
        banner["trial"] = ["version": "1.1.0", "crashes": 1, "runs": [["pid": Int32.max, "started": 1]]]
    }
    let reports = Reports()
    _ = try feed.manager(store: store, reports: reports).loadInstalled(into: Router())
    let lines = reports.lines
    #expect(lines.contains { $0.contains("banner 1.1.0 crashed the App twice inside its own code; it is marked bad") })
    #expect(lines.contains { $0.contains("banner 1.0.0 failed to load") }, "the previous version was tried")
    #expect(try manager.installed().first?.bad == ["1.1.0", "1.0.0"])
}

@Test func aRunOfALiveProcessIsNoCrash() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner")
    // Another App that loaded it is still running (this test's process stands for it), once more.
    let mark = ["pid": Int(getpid()), "started": try #require(startTicks())] as [String: Any]
    try editState(in: store) { banner in banner["trial"] = ["version": "1.0.0", "crashes": 1, "runs": [mark]] }
    let reports = Reports()
    _ = try feed.manager(store: store, reports: reports).loadInstalled(into: Router())
    #expect(!reports.lines.contains { $0.contains("crashed") }, "\(reports.lines)")
}

@Test func aCleanExitInWhichThePluginsCodeRanEndsTheTrialAndDropsThePreviousVersion() async throws {
    let (_, store, manager) = try await bannerWithAnUpdate()
    // As a start that loaded 1.1.0 (promoted, 1.0.0 kept) leaves the state, with this process's mark.
    let mark = ["pid": Int(getpid()), "started": try #require(startTicks())] as [String: Any]
    try editState(in: store) { banner in
        banner["current"] = "1.1.0"
        banner["pending"] = nil
        banner["previous"] = "1.0.0"
        banner["trial"] = ["version": "1.1.0", "crashes": 0, "runs": [mark]]
    }
    // This run called into its code after its load, as its ledger says.
    try writeLedger(in: store, pid: Int(getpid()), started: try #require(startTicks()), inside: 0, ran: 1)
    let versions = store.appendingPathComponent("versions/banner")
    #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).sorted() == ["1.0.0", "1.1.0"])
    manager.finishRun()
    #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path) == ["1.1.0"], "trusted now: the previous version goes")
    let state = try String(contentsOf: store.appendingPathComponent("state.json"), encoding: .utf8)
    #expect(!state.contains("trial"))
}

/// Writes the call ledger a run of `banner` leaves: calls in progress when it ended, whether its code ran after its load.
private func writeLedger(in store: URL, pid: Int, started: UInt64, inside: Int64, ran: Int64) throws {
    let folder = store.appendingPathComponent("runs")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let slots: [Int64] = [inside, ran, 1]
    try slots.withUnsafeBytes { Data($0) }.write(to: folder.appendingPathComponent("\(pid)-\(started)-banner.calls"))
}

@Test func aRunThatDiedOutsideThePluginsCodeIsNoCrashOfIt() async throws {
    let (feed, store, _) = try await bannerWithAnUpdate()
    // One more crash makes two: but the run died while no call into the plugin was in progress.
    try editState(in: store) { banner in
        banner["trial"] = ["version": "1.1.0", "crashes": 1, "runs": [["pid": Int32.max, "started": 1]]]
    }
    try writeLedger(in: store, pid: Int(Int32.max), started: 1, inside: 0, ran: 1)
    let reports = Reports()
    _ = try feed.manager(store: store, reports: reports).loadInstalled(into: Router())
    #expect(!reports.lines.contains { $0.contains("crashed the App twice") }, "\(reports.lines)")
    let ledgers = try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("runs").path)
    #expect(!ledgers.contains("\(Int32.max)-1-banner.calls"), "a dead run's ledger is read once, then deleted")

    try editState(in: store) { banner in
        banner["trial"] = ["version": "1.1.0", "crashes": 1, "runs": [["pid": Int32.max, "started": 2]]]
    }
    try writeLedger(in: store, pid: Int(Int32.max), started: 2, inside: 1, ran: 0)
    _ = try feed.manager(store: store, reports: reports).loadInstalled(into: Router())
    #expect(reports.lines.contains { $0.contains("banner 1.1.0 crashed the App twice inside its own code") }, "\(reports.lines)")
}

/// A store with banner 1.0.0 installed and on trial, loaded by this process (its mark, no crash yet).
private func bannerOnTrialInThisRun() async throws -> (store: URL, manager: RuntimePluginManager) {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner")
    let mark = ["pid": Int(getpid()), "started": try #require(startTicks())] as [String: Any]
    try editState(in: store) { banner in banner["trial"] = ["version": "1.0.0", "crashes": 0, "runs": [mark]] }
    return (store, manager)
}

@Test func aCleanExitWithoutALedgerProvesNothing() async throws {
    let (store, manager) = try await bannerOnTrialInThisRun()
    manager.finishRun()
    #expect(try String(contentsOf: store.appendingPathComponent("state.json"), encoding: .utf8).contains("trial"), "no marks: still on trial")
}

@Test func aCleanExitInWhichThePluginsCodeNeverRanKeepsTheTrial() async throws {
    let (_, store, manager) = try await bannerWithAnUpdate()
    let started = try #require(startTicks())
    let mark = ["pid": Int(getpid()), "started": started] as [String: Any]
    try editState(in: store) { banner in
        banner["current"] = "1.1.0"
        banner["pending"] = nil
        banner["previous"] = "1.0.0"
        banner["trial"] = ["version": "1.1.0", "crashes": 0, "runs": [mark]]
    }
    try writeLedger(in: store, pid: Int(getpid()), started: started, inside: 0, ran: 0)
    manager.finishRun()
    let versions = store.appendingPathComponent("versions/banner")
    #expect(try FileManager.default.contentsOfDirectory(atPath: versions.path).sorted() == ["1.0.0", "1.1.0"], "the previous version is kept")
    let state = try String(contentsOf: store.appendingPathComponent("state.json"), encoding: .utf8)
    #expect(state.contains("trial"))
}

@Test func anInstallOfTheVersionInstalledDownloadsNothing() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let manager = try feed.manager(store: storeFolder())
    try await manager.install("banner")
    try FileManager.default.removeItem(at: feed.folder.appendingPathComponent("plugins"))
    #expect(try await manager.install("banner") == InstallResult(id: "banner", version: "1.0.0", change: .unchanged))
    #expect(try await manager.install("banner", version: "1.0.0") == InstallResult(id: "banner", version: "1.0.0", change: .unchanged))
    #expect(try manager.installed().first?.held == true, "named: held there")
}

@Test func aPluginInstalledByVersionIsHeldUntilAnUpdateNamesIt() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0", "1.1.0"])
    let manager = try feed.manager(store: storeFolder())
    try await manager.install("banner", version: "1.0.0")
    #expect(try await manager.update() == [.held(id: "banner", version: "1.0.0")])
    #expect(try await manager.update("banner") == [.updated(id: "banner", from: "1.0.0", to: "1.1.0")])
    #expect(try manager.installed().first?.held == false)
}

@Test func anUpdateOfAPluginWithNothingThatLoadsInstallsTheNewestThatFits() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner")
    _ = manager.loadInstalled(into: Router()) // not a shared object: marked bad, nothing loads
    #expect(try await manager.update() == [.noFit(id: "banner", reason: "every version is marked bad")])
    try feed.publish(["1.0.0", "1.0.1"], sequence: 3)
    #expect(try await manager.update() == [.updated(id: "banner", from: nil, to: "1.0.1")])
    #expect(try manager.installed().first?.current == "1.0.1")
}

@Test func eachFeedHasItsOwnSequence() async throws {
    let first = TestFeed(), second = TestFeed()
    try first.publish(["1.0.0"], sequence: 9)
    try second.publish(["1.0.0"], sequence: 1)
    let store = storeFolder()
    _ = try await first.manager(store: store).index()
    let other = RuntimePluginManager(
        store: PluginStore(folder: store), configuration: FeedConfiguration(feed: second.folder, keys: try TrustedKeys([second.key.publicKey])),
        host: TestFeed.host, report: { _ in })
    #expect(try await other.index().sequence == 1, "another feed's sequence is no replay of the first's")
}

@Test func linksAreLookedUpInTheIndexFetchedLastWhileItIsYoung() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    #expect(try await manager.feedPlugin(opening: "app://banner/spring")?.id == "banner")
    try FileManager.default.removeItem(at: feed.folder.appendingPathComponent(FeedIndex.fileName))
    #expect(try await manager.feedPlugin(opening: "app://banner/summer")?.id == "banner", "answered from the copy")
    #expect(try await manager.feedPlugin(opening: "app://nothing") == nil)
    var configuration = FeedConfiguration(feed: feed.folder, keys: try TrustedKeys([feed.key.publicKey]))
    configuration.lookupAge = 0
    let strict = RuntimePluginManager(store: PluginStore(folder: store), configuration: configuration, host: TestFeed.host, report: { _ in })
    await #expect(throws: FeedError.self) { _ = try await strict.feedPlugin(opening: "app://banner/spring") }
    let remembered = await #expect(throws: FeedError.self) { _ = try await strict.feedPlugin(opening: "app://banner/autumn") }
    #expect(remembered?.message.contains("not asked again for a minute") == true, "a feed that just failed is not asked again at once")
}

@Test func aStoreThatCannotBeWrittenSaysWhereAndWhy() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let notAFolder = storeFolder()
    try Data("a file".utf8).write(to: notAFolder)
    let error = await #expect(throws: (any Error).self) { _ = try await feed.manager(store: notAFolder).install("banner") }
    let text = "\(error.map { "\($0)" } ?? "")"
    #expect(text.contains("the plugin store \(notAFolder.path) cannot be written (it is a file, not a folder)"), "\(text)")
    #expect(text.contains("Make it a writable folder, or give the App another data folder."))
}

@Test func downloadFilesNobodyHoldsAreRemovedAndHeldOnesStay() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    let downloads = store.appendingPathComponent("downloads")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    let left = downloads.appendingPathComponent("abc-1.part"), held = downloads.appendingPathComponent("def-2.part")
    for file in [left, held] {
        try Data("partial".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: file.path)
    }
    let holder = open(held.path, O_RDONLY)
    defer { close(holder) }
    #expect(flock(holder, LOCK_EX) == 0)
    try await manager.install("banner")
    #expect(!FileManager.default.fileExists(atPath: left.path), "left by a killed install: removed")
    #expect(FileManager.default.fileExists(atPath: held.path), "another install's, still locked: kept")
}

@Test func theRuntimeIdentityReadInMemoryIsTheLibraryFilesOwn() throws {
    // Read to the end: /proc files report a size of 0.
    let maps = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data(), as: UTF8.self)
    let path = try #require(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }.first { $0.hasSuffix("/libswiftCore.so") })
    #expect(try SwiftRuntime.loadedLibraryIdentity() == (try RuntimeIdentity.of(library: URL(fileURLWithPath: String(path)))))
}

/// Changes the `banner` entry of the store's state as a run that never finished would leave it.
private func editState(in store: URL, _ edit: (inout [String: Any]) -> Void) throws {
    let stateURL = store.appendingPathComponent("state.json")
    var state = try JSONSerialization.jsonObject(with: try Data(contentsOf: stateURL)) as? [String: Any] ?? [:]
    var plugins = state["plugins"] as? [String: Any] ?? [:]
    var banner = plugins["banner"] as? [String: Any] ?? [:]
    edit(&banner)
    plugins["banner"] = banner
    state["plugins"] = plugins
    try JSONSerialization.data(withJSONObject: state).write(to: stateURL)
}

/// This process's start time in clock ticks after boot (`/proc/self/stat`, field 22).
private func startTicks() -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    return fields.count > 19 ? UInt64(fields[19]) : nil
}

@Test func removeTakesThePluginAndItsFilesAway() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let manager = try feed.manager(store: storeFolder())
    try await manager.install("banner")
    try manager.remove("banner")
    #expect(try manager.installed().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: manager.store.versionFolder("banner", "1.0.0").path))
    #expect(throws: FeedError.self) { try manager.remove("banner") }
}

@Test func aLookupRecordsTheSequenceItSawSoAnOlderIndexCannotFollow() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"], sequence: 3)
    let manager = try feed.manager(store: storeFolder())
    _ = try await manager.feedPlugin(opening: "app://nothing")
    try feed.publish(["1.0.0"], sequence: 1)
    let error = await #expect(throws: FeedError.self) { try await manager.index() }
    #expect(error?.message.contains("older (sequence 1) than one this App has already seen (sequence 3)") == true)
}

@Test func aLookupCopyFromTheFutureIsNoYoungCopy() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    _ = try await manager.feedPlugin(opening: "app://banner/a")
    let copyURL = store.appendingPathComponent("lookup-index.json")
    var copy = try JSONSerialization.jsonObject(with: try Data(contentsOf: copyURL)) as? [String: Any] ?? [:]
    copy["fetched"] = Date().timeIntervalSince1970 + 10 * 365 * 86_400
    try JSONSerialization.data(withJSONObject: copy).write(to: copyURL)
    try FileManager.default.removeItem(at: feed.folder.appendingPathComponent(FeedIndex.fileName))
    await #expect(throws: FeedError.self, "asked the feed, which has no index now") { _ = try await manager.feedPlugin(opening: "app://banner/b") }
}

@Test func oneFeedSpeltTwoWaysHasOneSequence() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"], sequence: 5)
    let store = storeFolder()
    _ = try await feed.manager(store: store).index()
    try feed.publish(["1.0.0"], sequence: 2)
    let slashed = RuntimePluginManager(
        store: PluginStore(folder: store),
        configuration: FeedConfiguration(feed: URL(string: feed.folder.absoluteString + "/")!, keys: try TrustedKeys([feed.key.publicKey])),
        host: TestFeed.host, report: { _ in })
    await #expect(throws: FeedError.self) { try await slashed.index() }
}

@Test func installingTheVersionThatLoadsDropsTheUpdateWaitingAndDownloadsNothing() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0", "1.1.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner", version: "1.0.0")
    try editState(in: store) { banner in banner["trial"] = nil } // as after a run that loaded it ended cleanly
    try await manager.install("banner")
    try FileManager.default.removeItem(at: feed.folder.appendingPathComponent("plugins"))
    #expect(try await manager.install("banner", version: "1.0.0") == InstallResult(id: "banner", version: "1.0.0", change: .updateDropped("1.1.0")))
    #expect(try manager.installed().first?.pending == nil)
    #expect(!(try String(contentsOf: store.appendingPathComponent("state.json"), encoding: .utf8)).contains("trial"), "a trusted version stays trusted")
}

@Test func damagedFilesLeaveThePluginOutUnmarkedAndAnInstallRepairsThem() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let reports = Reports()
    let manager = try feed.manager(store: store, reports: reports)
    try await manager.install("banner")
    try FileManager.default.removeItem(at: store.appendingPathComponent("versions/banner/1.0.0/libBanner.so"))
    #expect(manager.loadInstalled(into: Router()).isEmpty)
    #expect(
        reports.lines.contains { $0.contains("is left out: the installed library of banner 1.0.0 is missing") && $0.contains("install banner@1.0.0") },
        "\(reports.lines)")
    #expect(try manager.installed().first?.bad == [], "the release is not to blame")
    #expect(try await manager.install("banner", version: "1.0.0").change == .installed, "downloaded again, not 'installed already'")
    #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("versions/banner/1.0.0/libBanner.so").path))
}

@Test func theRepairTheAdviceNamesKeepsThePluginUnheld() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner")
    try FileManager.default.removeItem(at: store.appendingPathComponent("versions/banner/1.0.0/libBanner.so"))
    _ = try await manager.install("banner", version: "1.0.0")
    #expect(try manager.installed().first?.held == false, "a repair is no choice of version: updates still reach it")
    try feed.publish(["1.0.0", "1.1.0"], sequence: 3)
    #expect(try await manager.update() == [.updated(id: "banner", from: "1.0.0", to: "1.1.0")])
}

@Test func anUpdateThatChangesNothingStillRecordsTheSequenceItSaw() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"], sequence: 5)
    let manager = try feed.manager(store: storeFolder())
    try await manager.install("banner")
    try feed.publish(["1.0.0"], sequence: 6)
    #expect(try await manager.update().isEmpty)
    try feed.publish(["1.0.0"], sequence: 5)
    let error = await #expect(throws: FeedError.self) { try await manager.index() }
    #expect(error?.message.contains("older (sequence 5) than one this App has already seen (sequence 6)") == true)
}

@Test func aStateWriteThatNeverRenamedIsRemovedAtTheNextChange() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner")
    let leftover = store.appendingPathComponent(".state.json.999999.tmp")
    try Data("{".utf8).write(to: leftover)
    try manager.remove("banner")
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
}

@Test func aRunInterruptedBeforeTheAppWasUpNeitherCrashesNorProvesAVersion() async throws {
    let (store, manager) = try await bannerOnTrialInThisRun()
    manager.finishRun(trusting: false)
    let state = try String(contentsOf: store.appendingPathComponent("state.json"), encoding: .utf8)
    #expect(state.contains("\"trial\""), "still on trial")
    #expect(!state.contains("\(getpid())"), "this run's mark is gone")
}

/// A real shared object whose entry `<id>_plugin_entry` returns no export: it loads, and its load then fails
/// with "returned no RuntimePluginExport", which tells it apart from a file that does not load at all.
private func sharedObjectWithAnEmptyEntry(for id: String = "banner") throws -> Data {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("void *\(id)_plugin_entry(void) { return 0; }\n".utf8).write(to: folder.appendingPathComponent("entry.c"))
    let compiler = Process()
    compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compiler.arguments = ["clang", "-shared", "-fPIC", "-o", folder.appendingPathComponent("libBanner.so").path, folder.appendingPathComponent("entry.c").path]
    try compiler.run()
    compiler.waitUntilExit()
    try #require(compiler.terminationStatus == 0, "clang (it comes with the Swift toolchain) must build a shared object")
    return try Data(contentsOf: folder.appendingPathComponent("libBanner.so"))
}

@Test(arguments: [false, true])
func whatLoadsIsTheLibraryFileWhoseHashWasCheckedEvenIfAnotherTakesItsNameBeforeTheLoad(checkedAhead: Bool) async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"], library: try sharedObjectWithAnEmptyEntry())
    let store = storeFolder()
    try await feed.manager(store: store).install("banner")
    let library = store.appendingPathComponent("versions/banner/1.0.0/libBanner.so")
    let reports = Reports()
    // Another file takes the library's name after its check passed, right before the library is mapped.
    let manager = try feed.manager(store: store, reports: reports) { step in
        if step == "load banner 1.0.0" { try? Data("not an ELF file".utf8).write(to: library, options: .atomic) }
    }
    if checkedAhead { manager.checkAhead() }
    _ = manager.loadInstalled(into: Router())
    // The checked file loaded (and its entry returned nothing); the file the name leads to now would not load at all.
    #expect(reports.lines.contains { $0.contains("returned no RuntimePluginExport") }, "\(reports.lines)")
    #expect(!reports.lines.contains { $0.contains("does not load") })
}

@Test func twoPluginsLoadedOneAfterTheOtherEachMapTheirOwnLibrary() async throws {
    var reports: [String] = []
    for id in ["banner", "ribbon"] {
        var feed = TestFeed()
        feed.id = id
        try feed.publish(["1.0.0"], library: try sharedObjectWithAnEmptyEntry(for: id))
        let store = storeFolder()
        try await feed.manager(store: store).install(id)
        let lines = Reports()
        _ = try feed.manager(store: store, reports: lines).loadInstalled(into: Router())
        reports += lines.lines
    }
    // Each entry was found in its own library (the loader knows a library by its path: a memory copy's
    // path reused for the second would hand back the first).
    for id in ["banner", "ribbon"] {
        #expect(reports.contains { $0.contains("the entry '\(id)_plugin_entry' returned no RuntimePluginExport") }, "\(reports)")
    }
}

@Test(arguments: [false, true])
func aLibraryThatIsNoRegularFileIsLeftOutWithoutWaitingOnIt(checkedAhead: Bool) async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    let reports = Reports()
    let manager = try feed.manager(store: store, reports: reports)
    try await manager.install("banner")
    let library = store.appendingPathComponent("versions/banner/1.0.0/libBanner.so")
    try FileManager.default.removeItem(at: library)
    #expect(mkfifo(library.path, 0o644) == 0, "a pipe nobody writes: opening it to read would wait forever")
    if checkedAhead { manager.checkAhead() }
    #expect(manager.loadInstalled(into: Router()).isEmpty)
    #expect(reports.lines.contains { $0.contains("the installed library of banner 1.0.0 is no regular file") }, "\(reports.lines)")
    #expect(try manager.installed().first?.bad == [], "the release is not to blame")
}

@Test func aStartWithNothingOnTrialStillRemovesWhatAChangeCutShortLeft() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0"])
    let store = storeFolder()
    try await feed.manager(store: store).install("banner")
    try editState(in: store) { banner in banner["trial"] = nil } // trusted: the start has nothing to mark
    let staging = store.appendingPathComponent("staging/banner-1.0.1")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    // An App of other content leaves the plugin out, which records nothing: only the leftovers call for the lock.
    let otherApp = RuntimePluginManager(
        store: PluginStore(folder: store), configuration: FeedConfiguration(feed: feed.folder, keys: try TrustedKeys([feed.key.publicKey])),
        host: HostAPI(versions: ["router": "1.0.0"], keys: ["router": "other-content"], swiftRuntime: "runtime-a"), report: { _ in })
    _ = otherApp.loadInstalled(into: Router())
    #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("staging").path))
}
