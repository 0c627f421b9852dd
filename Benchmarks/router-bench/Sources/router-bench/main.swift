// The router's speed goals, measured in one run against vapor/routing-kit 4.9.3's TrieRouter.
//
//   router-bench                 times lookups and building; prints the figures, the ratios and the goals
//   router-bench --allocations   counts allocations per lookup (run with the interposer preloaded)
//
// With ROUTER_BENCH_ENFORCE=1 a missed goal exits 1 (the env-gated CI check).
import Foundation
import RoutingKit

let arguments = CommandLine.arguments.dropFirst()
let large = Mix(routes: 10_000, components: 100)
let small = Mix(routes: 100, components: 100)
let flat = Mix(routes: 10_000, components: 1)
let lookupCount = 100_000

if arguments.contains("--allocations") {
    exit(countAllocations() ? 0 : 1)
}

let ourLarge = try ours(large), ourSmall = try ours(small), ourFlat = try ours(flat)
let theirLarge = theirs(large), theirFlat = theirs(flat)
let lookups = large.lookups(lookupCount), preSplit = lookups.map(Mix.split)
let smallLookups = small.lookups(lookupCount), flatLookups = flat.lookups(lookupCount), flatPreSplit = flatLookups.map(Mix.split)
let misses = large.misses(lookupCount * 4), parameterNames = large.parameterNames
var built: AnyObject? // kept alive so that building is timed without tearing the last table down

print("10,000 routes (70% static, 20% one parameter, 10% parameter then literal, 100 components), 5% misses")
print("median of 11 interleaved rounds, each run after an untimed warm-up\n")
let results = measure(
    [
        Scenario(label: "ours: lookup", operations: lookups.count) { lookUp(lookups, in: ourLarge) },
        Scenario(label: "RoutingKit: split + route", operations: lookups.count) { lookUp(splitting: lookups, in: theirLarge) },
        Scenario(label: "RoutingKit: route, pre-split (its best case)", operations: lookups.count) { lookUp(preSplit, in: theirLarge) },
        Scenario(label: "ours: lookup + read the parameters", operations: lookups.count) {
            lookUp(lookups, in: ourLarge, readingParameters: true)
        },
        Scenario(label: "RoutingKit: split + route + read the parameters", operations: lookups.count) {
            lookUp(splitting: lookups, in: theirLarge, readingParameters: parameterNames)
        },
        Scenario(label: "ours: a miss", operations: misses.count) { lookUp(misses, in: ourLarge) },
        Scenario(label: "ours: lookup at 100 routes", operations: smallLookups.count) { lookUp(smallLookups, in: ourSmall) },
        Scenario(label: "ours: lookup, 10,000 routes under one node", operations: flatLookups.count) { lookUp(flatLookups, in: ourFlat) },
        Scenario(label: "RoutingKit: route, 10,000 under one node, pre-split", operations: flatLookups.count) {
            lookUp(flatPreSplit, in: theirFlat)
        },
        Scenario(label: "ours: build the 10,000-route table, per route", operations: large.patterns.count, prepare: { built = nil }) {
            guard let router = try? ours(large) else { return 0 }
            built = router
            return router.canOpen("myapp://c1/page1") ? 1 : 0 // the first lookup publishes the table
        },
        Scenario(label: "ours: build it one register call per route, per route", operations: large.patterns.count, prepare: { built = nil }) {
            guard let router = try? oursOneByOne(large) else { return 0 }
            built = router
            return router.canOpen("myapp://c1/page1") ? 1 : 0
        },
        Scenario(label: "RoutingKit: build the 10,000-route table, per route", operations: large.patterns.count, prepare: { built = nil }) {
            let router = theirs(large)
            built = router
            var parameters = Parameters()
            return router.route(path: ["c1", "page1"], parameters: &parameters) ?? 0
        },
    ], rounds: 11)
built = nil

func result(_ label: String) -> Double { results[label] ?? .nan }
let buildMilliseconds = result("ours: build the 10,000-route table, per route") * 10_000 / 1e6
let goals: [(String, Double, Double, String)] = [
    ("ours / RoutingKit (split + route)", result("ours: lookup") / result("RoutingKit: split + route"), 0.3, "x"),
    ("ours / RoutingKit (pre-split)", result("ours: lookup") / result("RoutingKit: route, pre-split (its best case)"), .infinity, "x"),
    (
        "the same, both reading the parameters",
        result("ours: lookup + read the parameters")
            / result("RoutingKit: split + route + read the parameters"), 0.3, "x"
    ),
    ("a miss", result("ours: a miss"), 200, " ns"),
    ("lookup at 10,000 routes / at 100", result("ours: lookup") / result("ours: lookup at 100 routes"), 1.3, "x"),
    ("10,000 under one node / spread over 100", result("ours: lookup, 10,000 routes under one node") / result("ours: lookup"), 1.3, "x"),
    ("building the 10,000-route table", buildMilliseconds, 5, " ms"),
    (
        "building: ours / RoutingKit",
        result("ours: build the 10,000-route table, per route")
            / result("RoutingKit: build the 10,000-route table, per route"), .infinity, "x"
    ),
    (
        "building one register call per route", result("ours: build it one register call per route, per route") * 10_000 / 1e6,
        .infinity, " ms"
    ),
]
print("")
var missed: [String] = []
for (label, value, goal, unit) in goals {
    let met = value <= goal
    let verdict = goal.isInfinite ? "" : "  goal: at most \(format(goal, decimals: goal < 10 ? 1 : 0))\(unit)  \(met ? "met" : "MISSED")"
    print("\(label.padding(toLength: 42, withPad: " ", startingAt: 0)) \(format(value, width: 8, decimals: 2))\(unit)\(verdict)")
    if !goal.isInfinite && !met { missed.append(label) }
}
if ProcessInfo.processInfo.environment["ROUTER_BENCH_ENFORCE"] == "1" && !missed.isEmpty {
    print("\nmissed: \(missed.joined(separator: ", "))")
    exit(1)
}

/// Prints allocations per lookup for each kind of URL; false when a static hit allocates or counting is off.
func countAllocations() -> Bool {
    guard Allocations.areCounted else {
        print("allocations are not counted: preload the interposer, as `make bench` does:")
        print("  LD_PRELOAD=Tools/router-bench/.build/release/libMallocInterposerSwift.so Tools/router-bench/.build/release/router-bench --allocations")
        return false
    }
    guard let router = try? ours(large) else { return false }
    let theirRouter = theirs(large)
    _ = router.canOpen("myapp://c1/page1")
    let kinds = [
        ("a static hit", "myapp://c3/page3"), ("a hit with one parameter", "myapp://c7/item7/42"),
        ("parameter then literal", "myapp://c9/7/edit9"), ("a miss", "myapp://c3/missing"),
    ]
    let repeats = 10_000
    var staticHitAllocates = true
    print("allocations per lookup (\(repeats) lookups each)")
    for (label, url) in kinds {
        let urls = [String](repeating: url, count: repeats)
        let paths = urls.map(Mix.split)
        let ourCount = Allocations.count { lookUp(urls, in: router) }
        let theirCount = Allocations.count { lookUp(paths, in: theirRouter) }
        print(
            "\(label.padding(toLength: 28, withPad: " ", startingAt: 0)) ours \(format(Double(ourCount) / Double(repeats), width: 5, decimals: 2))"
                + "   RoutingKit (pre-split) \(format(Double(theirCount) / Double(repeats), width: 5, decimals: 2))   (ours: \(ourCount) in all)")
        if label == "a static hit" { staticHitAllocates = ourCount > 0 }
    }
    print(staticHitAllocates ? "goal: zero allocations for a static hit  MISSED" : "goal: zero allocations for a static hit  met")
    return !staticHitAllocates
}
