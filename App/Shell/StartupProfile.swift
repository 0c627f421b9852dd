import Foundation
import Router
import Synchronization

/// What a start cost: the shell's own phases, each module's register and launch, and the time to the
/// first screen (the seeds' launch time profiler). `App --profile-startup` or `<PREFIX>_PROFILE=1` prints it.
final class StartupProfile: Sendable {
    private let clock = ContinuousClock()
    /// When the App's code started running (the process start before it, loading libraries, is not counted).
    let started: ContinuousClock.Instant
    private let phases = Mutex<[(String, Duration)]>([])
    private let firstScreen = Mutex<Duration?>(nil)

    init(started: ContinuousClock.Instant = ContinuousClock().now) {
        self.started = started
    }

    /// Runs `body` and records its time under `phase`.
    func measure<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer { record(phase, clock.now - start) }
        return try body()
    }

    /// Runs `body` and records its time under `phase`.
    func measure<T>(_ phase: String, _ body: () async throws -> T) async rethrows -> T {
        let start = clock.now
        defer { record(phase, clock.now - start) }
        return try await body()
    }

    private func record(_ phase: String, _ time: Duration) {
        phases.withLock { $0.append((phase, time)) }
    }

    /// Marks the first screen as shown now (once).
    func firstScreenShown() {
        let now = clock.now - started
        firstScreen.withLock { if $0 == nil { $0 = now } }
    }

    /// The table: the shell's phases, then each module, then the first screen.
    func table(modules: [ModuleStatus]) -> String {
        func milliseconds(_ duration: Duration?) -> String {
            guard let duration else { return "-" }
            let (seconds, attoseconds) = duration.components
            return String(format: "%.2f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        var lines = ["Startup profile (milliseconds after the App's code started; loading the process's libraries before it is not counted):"]
        for (phase, time) in phases.withLock({ $0 }) {
            lines.append("  shell: " + phase.padding(toLength: 46, withPad: " ", startingAt: 0) + milliseconds(time).leftPadded(9))
        }
        let width = max(12, (modules.map(\.name.count).max() ?? 0) + 2)
        lines.append("  " + "module".padding(toLength: width, withPad: " ", startingAt: 0) + "register".leftPadded(9) + "launch".leftPadded(9) + "  state")
        for module in modules {
            var state: String
            switch module.state {
            case .running: state = module.launchTiming == .afterFirstScreen ? "running (launches after the first screen)" : "running"
            case .disabled(let reason): state = "disabled: \(reason)"
            }
            if module.state == .running, module.launchTiming == .afterFirstScreen, module.launchTime == nil { state += ", still launching" }
            lines.append(
                "  " + module.name.padding(toLength: width, withPad: " ", startingAt: 0) + milliseconds(module.registerTime).leftPadded(9)
                    + milliseconds(module.launchTime).leftPadded(9) + "  " + state)
        }
        lines.append("  first screen after " + (firstScreen.withLock { $0 }.map { milliseconds($0) + " ms" } ?? "(no screen was shown)"))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
