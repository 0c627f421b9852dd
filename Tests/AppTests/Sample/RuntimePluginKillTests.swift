import Foundation
import Testing

/// kill -9 during an install, an update, or the start that loads an update: every following start loads
/// the old version or the new one, whole, and never reports a broken plugin.
///
/// Not repeated in the template check's copy (TEMPLATE_COPY_RUN=1): a team's change there leaves the
/// store and the loader as they are.
@Suite(
    .serialized, .requires("campaign", "product", "runtime-plugins"),
    .enabled(if: ProcessInfo.processInfo.environment["TEMPLATE_COPY_RUN"] != "1", "the template copy repeats no kill trials")
)
struct RuntimePluginKillTests {
    /// The steps of an install where the App can be stopped on purpose (SHOP_PLUGIN_KILL_AT).
    static let steps = [
        "download", "verified", "unpacked manifest.json", "unpacked manifest.sig", "unpacked libCampaign.so", "rename", "renamed", "state-write",
        "state-written",
    ]
    static let trials = 60

    @Test func killedInstallsAndUpdatesNeverLeaveAHalfInstalledPlugin() throws {
        let fixture = try RuntimePluginFixture.shared.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-plugin-kills-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try FeedServer(try fixture.feed(["1.0.0", "1.1.0"]))
        defer { server.stop() }
        let configuration = try fixture.configuration(feed: server.url, in: scratch)
        // A data folder with 1.0.0 installed and loaded once: each trial starts from a copy of it.
        let prepared = scratch.appendingPathComponent("prepared")
        let setup = AppProcess.withPlugins(configuration, data: prepared)
        #expect(try setup.run(["plugins", "install", "campaign@1.0.0"]).status == 0)
        #expect(try setup.run(["open", "shop://product/1"]).output.contains("10% off:"))
        let started = Date()
        let timing = AppProcess.withPlugins(configuration, data: scratch.appendingPathComponent("timing"))
        try FileManager.default.copyItem(at: prepared, to: timing.dataDirectory)
        #expect(try timing.run(["plugins", "update", "campaign"]).status == 0)
        let updateTime = Date().timeIntervalSince(started)

        var outcomes: [String: Int] = [:]
        for trial in 0..<Self.trials {
            let fresh = trial % 10 == 9 // every tenth trial installs into an empty store instead
            var app = AppProcess.withPlugins(configuration, data: scratch.appendingPathComponent("trial-\(trial)"))
            if !fresh { try FileManager.default.copyItem(at: prepared, to: app.dataDirectory) }
            // The prepared store holds 1.0.0 installed by version: an update names the plugin to move it.
            let command = fresh ? ["plugins", "install", "campaign"] : ["plugins", "update", "campaign"]
            let what: String
            switch trial % 3 {
            case 0:
                let step = Self.steps[(trial / 3) % Self.steps.count]
                app.environment["SHOP_PLUGIN_KILL_AT"] = step
                let killed = try app.run(command)
                app.environment["SHOP_PLUGIN_KILL_AT"] = nil
                #expect(killed.status != 0, "trial \(trial): the App stopped at '\(step)'")
                what = "killed at \(step)"
            case 1:
                let delay = updateTime * Double(trial) / Double(Self.trials)
                try app.runKilled(command, after: delay)
                what = "killed after \(Int(delay * 1000)) ms"
            default:
                #expect(try app.run(command).status == 0)
                let step = "load campaign"
                if trial % 2 == 0 {
                    app.environment["SHOP_PLUGIN_KILL_AT"] = step
                    _ = try app.run(["open", "shop://home"])
                    app.environment["SHOP_PLUGIN_KILL_AT"] = nil
                    what = "start killed while loading"
                } else {
                    try app.runKilled(["open", "shop://home"], after: 0.05 + 0.3 * Double(trial) / Double(Self.trials))
                    what = "start killed"
                }
            }
            for start in 1...2 {
                let result = try app.run(["open", "shop://product/1"])
                #expect(result.status == 0, "trial \(trial) (\(what)), start \(start): \(result.error)")
                for broken in ["failed to load", "marked bad", "damaged", "changed on disk", "missing"] {
                    #expect(!result.error.contains(broken), "trial \(trial) (\(what)), start \(start): \(result.error)")
                }
                let version = result.output.contains("20% off:") ? "1.1.0" : result.output.contains("10% off:") ? "1.0.0" : "none"
                #expect(version != "none" || fresh, "trial \(trial) (\(what)): an installed plugin always loads")
                if start == 2 { outcomes[version, default: 0] += 1 }
            }
        }
        // Both outcomes happen: the trials do stop updates before and after their commit point.
        #expect((outcomes["1.0.0"] ?? 0) > 0 && (outcomes["1.1.0"] ?? 0) > 0, "\(outcomes)")
    }
}

extension AppProcess {
    /// Starts the App with `arguments`, kills it with SIGKILL after `delay` seconds (if it still runs), and waits.
    func runKilled(_ arguments: [String], after delay: TimeInterval) throws {
        let process = try process(arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
