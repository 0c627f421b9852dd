import Logging
import Shell
import Synchronization
import Testing

/// The App's log lines: one per message, whatever the message and its values carry.
@Suite struct AppLogTests {
    private func logged(level: Logger.Level = .trace, _ body: (Logger) -> Void) -> String {
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "test") { _ in AppLogHandler(level: level) { line in lines.withLock { $0.append(line) } } }
        body(logger)
        return lines.withLock { $0.joined() }
    }

    @Test func aLineBreakInAMessageOrValueCannotForgeALogLine() {
        let text = logged { $0.warning("bad\nerror: forged", metadata: ["url": "myapp://x\r\nwarning: also forged", "we\nird": "1"]) }
        #expect(text == #"warning: bad\nerror: forged url=myapp://x\r\nwarning: also forged we\nird=1"# + "\n")
        #expect(text.split(separator: "\n").count == 1)
    }

    @Test func eachLevelHasItsOwnPrefixAndLowerLevelsAreDropped() {
        let text = logged(level: .notice) { logger in
            logger.info("hidden")
            logger.notice("seen")
            logger.critical("bad")
        }
        #expect(text == "notice: seen\nerror: bad\n")
    }
}
