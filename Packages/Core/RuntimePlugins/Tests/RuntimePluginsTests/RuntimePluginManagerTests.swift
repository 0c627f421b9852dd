import Foundation
import PluginFeed
import Router
import RuntimePlugins
import Synchronization
import Testing

/// A feed folder written with PluginFeed: plugin `banner` at the given versions, a library that is no
/// shared object (so loading it fails the way a broken build does).
private struct TestFeed {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-\(UUID().uuidString)")
    let key = PluginSigningKey()
    static let host = HostAPI(versions: ["router": "1.0.0"], swiftRuntime: "runtime-a")

    func publish(_ versions: [String], hostAPI: [String: String] = ["router": "1.0.0"], sequence: Int? = nil) throws {
        var index = FeedIndex(sequence: sequence ?? versions.count)
        for version in versions {
            let library = Data("not an ELF file, version \(version)".utf8)
            let manifest = PluginManifest(
                id: "banner", version: version, entry: "banner_plugin_entry", library: "libBanner.so", sha256: Digest.sha256(library), size: library.count,
                contributions: [.init(point: "shelf-interface/badges", plugin: "banner")], routes: ["app://banner/:name"], hostAPI: hostAPI, swift: "6.3.1",
                swiftRuntime: "runtime-a")
            let manifestData = try manifest.encoded()
            let archive = try PluginArchive(files: [
                PluginArchive.manifestName: manifestData, PluginArchive.signatureName: try key.sign(manifestData), "libBanner.so": library,
            ]).encoded()
            let path = "plugins/banner/banner-\(version).tar"
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("plugins/banner"), withIntermediateDirectories: true)
            try archive.write(to: folder.appendingPathComponent(path))
            index.plugins["banner", default: []].append(
                FeedIndex.Release(version: version, archive: path, size: archive.count, sha256: Digest.sha256(archive), manifest: manifest))
        }
        let data = try FeedJSON.encode(index)
        try data.write(to: folder.appendingPathComponent(FeedIndex.fileName))
        try key.sign(data).write(to: folder.appendingPathComponent(FeedIndex.signatureName))
    }

    func manager(store: URL, reports: Reports? = nil) throws -> RuntimePluginManager {
        RuntimePluginManager(
            store: PluginStore(folder: store), configuration: FeedConfiguration(feed: folder, keys: try TrustedKeys([key.publicKey])), host: Self.host,
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
    #expect(try await manager.install("banner") == "1.0.0")
    #expect(try manager.installed().map { $0.current } == ["1.0.0"])
    try feed.publish(["1.0.0", "1.1.0"], sequence: 2)
    #expect(try await manager.update() == ["banner 1.0.0 -> 1.1.0"])
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
    #expect(try await manager.install("banner") == "1.1.0")
    #expect(try await manager.update() == [])
    #expect(try await manager.install("banner", version: "1.0.0") == "1.0.0")
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
        host: HostAPI(versions: ["router": "2.0.0"], swiftRuntime: "runtime-a"), report: { line in reports.append(line) })
    #expect(newerApp.loadInstalled(into: Router()).isEmpty)
    #expect(reports.lines.contains { $0.contains("built against router 1.0.0, the App has router 2.0.0") })
    #expect(try newerApp.installed().first?.bad == [])
    #expect(try newerApp.installed().first?.current == "1.0.0")
}

@Test func aLoadThatNeverFinishedTwiceMarksTheVersionBadAndThePreviousOneIsTried() async throws {
    let feed = TestFeed()
    try feed.publish(["1.0.0", "1.1.0"])
    let store = storeFolder()
    let manager = try feed.manager(store: store)
    try await manager.install("banner", version: "1.0.0")
    try await manager.install("banner", version: "1.1.0")
    // As two starts that died while loading 1.1.0 leave the state.
    let stateURL = store.appendingPathComponent("state.json")
    var state = try JSONSerialization.jsonObject(with: try Data(contentsOf: stateURL)) as? [String: Any] ?? [:]
    var plugins = state["plugins"] as? [String: Any] ?? [:]
    var banner = plugins["banner"] as? [String: Any] ?? [:]
    banner["attempt"] = ["version": "1.1.0", "count": 2]
    plugins["banner"] = banner
    state["plugins"] = plugins
    try JSONSerialization.data(withJSONObject: state).write(to: stateURL)
    let reports = Reports()
    _ = try feed.manager(store: store, reports: reports).loadInstalled(into: Router())
    let lines = reports.lines
    #expect(lines.contains { $0.contains("banner 1.1.0 crashed the App twice while loading; it is marked bad") })
    #expect(lines.contains { $0.contains("banner 1.0.0 failed to load") }, "the previous version was tried")
    #expect(try manager.installed().first?.bad == ["1.1.0", "1.0.0"])
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
