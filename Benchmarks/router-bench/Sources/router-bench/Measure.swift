import Foundation

/// One thing to time: `body` does `operations` operations and returns a checksum so nothing is optimized away.
struct Scenario {
    let label: String
    let operations: Int
    /// Runs untimed before each run of `body`: to free what the last run built, say.
    var prepare: () -> Void = {}
    let body: () -> Int
}

/// Runs every scenario once per round, `rounds` times, so a change in the machine's load touches
/// them all alike; each timed run follows an untimed one that warms the caches the scenario uses.
/// Returns each one's median time per operation, in nanoseconds.
func measure(_ scenarios: [Scenario], rounds: Int) -> [String: Double] {
    var samples = [String: [Double]]()
    var checksum = 0
    for _ in 0..<rounds {
        for scenario in scenarios {
            scenario.prepare()
            checksum &+= scenario.body()
            scenario.prepare()
            let start = ContinuousClock.now
            checksum &+= scenario.body()
            let elapsed = ContinuousClock.now - start
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            samples[scenario.label, default: []].append(nanoseconds / Double(scenario.operations))
        }
    }
    var medians = [String: Double]()
    for scenario in scenarios {
        let sorted = samples[scenario.label, default: []].sorted()
        medians[scenario.label] = sorted[sorted.count / 2]
        print("\(scenario.label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(format(sorted[sorted.count / 2], width: 9)) ns")
    }
    if checksum == Int.min { print("") }
    return medians
}

func format(_ value: Double, width: Int = 0, decimals: Int = 1) -> String {
    String(format: "%\(width).\(decimals)f", value)
}
