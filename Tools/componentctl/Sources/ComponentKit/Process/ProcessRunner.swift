public import Foundation
import Synchronization

/// Runs a program to completion and collects what it printed.
///
/// Both pipes are drained at once, each on its own thread, and standard input is fed on a third: a
/// child that fills one pipe while the parent waits on the other would otherwise block for ever.
public enum ProcessRunner {
    /// How a run ended and what it printed.
    public struct Output: Sendable {
        /// The exit status (or the signal's number plus 128 when it was killed).
        public var status: Int32
        /// Standard output.
        public var standardOutput: Data
        /// Standard error.
        public var standardError: Data

        /// Standard output as text.
        public var text: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text.
        public var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// A run killed, with everything it started, because it outlived its time limit.
    public struct TimedOut: Error, Sendable {
        /// The limit, in seconds.
        public var seconds: Double
    }

    /// Runs `executable` with `arguments` in `directory`, with `environment` added to this process's own,
    /// feeding it `input`; throws when the program cannot be started, when a request to stop componentctl ended it
    /// (``StopForwarding``), or when it ran longer than `timeout` seconds (``TimedOut``).
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: Data? = nil,
        timeout: Double? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let stop = try StopForwarding.start(process)
        let timedOut = Mutex(false)
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if stop.end() { timedOut.withLock { $0 = true } }
            }
        }
        let output = Background { stdout.fileHandleForReading.readDataToEndOfFile() }
        let errors = Background { stderr.fileHandleForReading.readDataToEndOfFile() }
        if let input {
            let writer = Thread {
                try? stdin.fileHandleForWriting.write(contentsOf: input)
                try? stdin.fileHandleForWriting.close()
            }
            writer.start()
        }
        process.waitUntilExit()
        if let signal = stop.finish() { throw StopForwarding.stopped(by: signal, while: "running \(executable.lastPathComponent)") }
        if let timeout, timedOut.withLock({ $0 }) { throw TimedOut(seconds: timeout) }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Output(status: status, standardOutput: try output.wait(), standardError: try errors.wait())
    }

    /// Runs `executable` with `arguments` on this process's terminal and returns its exit status (the signal's number
    /// plus 128 when it was killed). The child gets the terminal's foreground while it runs, since Foundation starts
    /// it in a process group of its own, which could not read the terminal otherwise; Ctrl-C then reaches it directly.
    public static func runAttached(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stop = try StopForwarding.start(process)
        let terminal = isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == getpgrp() ? STDIN_FILENO : -1
        if terminal >= 0 { tcsetpgrp(terminal, process.processIdentifier) }
        process.waitUntilExit()
        if terminal >= 0 {
            // Taking the terminal back from the background raises SIGTTOU, which would stop us.
            signal(SIGTTOU, SIG_IGN)
            tcsetpgrp(terminal, getpgrp())
            signal(SIGTTOU, SIG_DFL)
        }
        _ = stop.finish()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
