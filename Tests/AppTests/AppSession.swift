import Foundation
import Synchronization
import Testing

/// The interactive App driven a line at a time, for tests that act between lines (change a file, a server):
/// `send` a line, `wait(for:)` what it prints, `finish` to close its input and collect the rest.
final class AppSession {
    /// Bytes a reader thread collects.
    private final class Sink: Sendable {
        let data = Mutex(Data())
        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    private let process: Process
    private let input: FileHandle
    private let output = Sink()
    private let error = Sink()
    private let readers = DispatchGroup()

    init(_ app: AppProcess, arguments: [String] = []) throws {
        process = try app.process(arguments)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        try process.run()
        for (pipe, sink) in [(stdout, output), (stderr, error)] {
            readers.enter()
            Thread.detachNewThread { [readers] in
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    sink.data.withLock { $0 += chunk }
                }
                readers.leave()
            }
        }
    }

    /// What the App printed so far.
    var printed: String { output.text }
    /// What it wrote to standard error so far.
    var logged: String { error.text }

    /// Types `line` into the App.
    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits until the App has printed `text` `count` times in all (up to 60 seconds); records an issue if it never does.
    func wait(for text: String, count: Int = 1) {
        let deadline = Date().addingTimeInterval(60)
        while printed.components(separatedBy: text).count - 1 < count, Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(printed.components(separatedBy: text).count - 1 >= count, "the App never printed '\(text)' (\(count) times): \(printed)")
    }

    /// Sends the App Ctrl-C's signal (SIGINT) and waits for it to end; returns its exit status.
    func interrupt() -> Int32 {
        process.interrupt()
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }

    /// Closes the App's input (the end of input: it quits) and waits for it; returns its exit status.
    @discardableResult
    func finish() throws -> Int32 {
        try input.close()
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }
}
