import ComponentKit
import Foundation
import Testing

@Suite struct ProcessRunnerTests {
    @Test(.timeLimit(.minutes(1)))
    func megabytesOnBothPipesAtOnceDoNotBlock() throws {
        // Standard error first and large: a runner reading standard output to its end first would wait for ever.
        let script = "head -c 3000000 /dev/zero | tr '\\0' e >&2; head -c 3000000 /dev/zero | tr '\\0' o; exit 3"
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(run.status == 3)
        #expect(run.standardOutput.count == 3_000_000)
        #expect(run.standardError.count == 3_000_000)
        #expect(run.standardOutput.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(run.standardError.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test(.timeLimit(.minutes(1)))
    func largeInputIsFedWhileOutputIsRead() throws {
        let input = Data(repeating: UInt8(ascii: "i"), count: 2_000_000)
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cat"), [], input: input)
        #expect(run.status == 0)
        #expect(run.standardOutput == input)
    }

    @Test func aKilledChildReportsItsSignal() throws {
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -9 $$"])
        #expect(run.status == 137)
    }

    @Test func aMissingProgramThrows() {
        #expect(throws: (any Error).self) { try ProcessRunner.run(URL(fileURLWithPath: "/nonexistent/program"), []) }
    }
}
