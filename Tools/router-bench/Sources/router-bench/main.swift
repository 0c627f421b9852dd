// Route mix (issue 6): 70% static, 20% one parameter, 10% parameter then literal, over 100
// components (first levels); lookups hit 95%, miss 5%. Both routers answer the same lookups from the
// same URL strings; RoutingKit is also shown on pre-split paths, its best case.
import RoutingKit

typealias RKRouter = RoutingKit.TrieRouter

struct Mix {
    var patterns: [(ours: String, theirs: [PathComponent])] = []
    var hits: [String] = []

    init(routes: Int, components: Int) {
        for index in 0..<routes {
            let host = "c\(index % components)"
            switch index % 10 {
            case 0..<7:
                patterns.append(("shop://\(host)/page\(index)", [.constant(host), .constant("page\(index)")]))
                hits.append("shop://\(host)/page\(index)")
            case 7, 8:
                patterns.append(("shop://\(host)/item\(index)/:id", [.constant(host), .constant("item\(index)"), .parameter("id")]))
                hits.append("shop://\(host)/item\(index)/42")
            default:
                patterns.append(("shop://\(host)/:id/edit\(index)", [.constant(host), .parameter("id"), .constant("edit\(index)")]))
                hits.append("shop://\(host)/7/edit\(index)")
            }
        }
    }

    /// Lookups: 95% hits in a scrambled order, 5% misses.
    func lookups(_ count: Int) -> [String] {
        (0..<count).map { index in
            index % 20 == 19 ? "shop://c\(index % 100)/missing\(index)" : hits[(index &* 7919) % hits.count]
        }
    }
}

func measure(_ label: String, lookups: Int, repeats: Int = 7, _ body: () -> Int) -> Double {
    var samples: [Double] = []
    var sink = 0
    for _ in 0..<repeats {
        let start = ContinuousClock.now
        sink &+= body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9)
    }
    let median = samples.sorted()[samples.count / 2] / Double(lookups)
    print("\(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", median)) ns\(sink == -1 ? "!" : "")")
    return median
}

func theirs(_ mix: Mix) -> RKRouter<Int> {
    let router = RKRouter(Int.self)
    for (index, pattern) in mix.patterns.enumerated() { router.register(index, at: pattern.theirs) }
    return router
}

func split(_ url: String) -> [String] {
    url.dropFirst("shop://".count).split(separator: "/").map(String.init)
}

let count = 200_000
let large = Mix(routes: 10_000, components: 100)
let small = Mix(routes: 100, components: 100)
let lookups = large.lookups(count)
let smallLookups = small.lookups(count)
let ourLarge = try OurRouter(mix: large)
let ourSmall = try OurRouter(mix: small)
let theirLarge = theirs(large)
let preSplit = lookups.map(split)

print("10,000 routes, \(count) lookups per sample (median of 7)")
let our = measure("ours: match(url)", lookups: count) {
    var found = 0
    for url in lookups where (try? ourLarge.match(url)) != nil { found += 1 }
    return found
}
let their = measure("RoutingKit TrieRouter: split + route", lookups: count) {
    var found = 0
    var parameters = Parameters()
    for url in lookups where theirLarge.route(path: split(url), parameters: &parameters) != nil { found += 1 }
    return found
}
let theirBest = measure("RoutingKit TrieRouter: route (pre-split)", lookups: count) {
    var found = 0
    var parameters = Parameters()
    for path in preSplit where theirLarge.route(path: path, parameters: &parameters) != nil { found += 1 }
    return found
}
let misses = lookups.enumerated().filter { $0.offset % 20 == 19 }.map(\.element)
let miss = measure("ours: a miss", lookups: misses.count) {
    misses.reduce(0) { $0 + ((try? ourLarge.match($1)) == nil ? 1 : 0) }
}
let atSmall = measure("ours: match(url) at 100 routes", lookups: count) {
    smallLookups.reduce(0) { $0 + ((try? ourSmall.match($1)) != nil ? 1 : 0) }
}
let flat = Mix(routes: 10_000, components: 1)
let ourFlat = try OurRouter(mix: flat)
let flatLookups = flat.lookups(count).map { $0.replacingOccurrences(of: "shop://c0/", with: "shop://c0/") }
let atRoot = measure("ours: 10,000 routes under one node", lookups: count) {
    flatLookups.reduce(0) { $0 + ((try? ourFlat.match($1)) != nil ? 1 : 0) }
}
let buildStart = ContinuousClock.now
_ = try OurRouter(mix: large)
let build = ContinuousClock.now - buildStart
let buildMilliseconds = Double(build.components.seconds) * 1e3 + Double(build.components.attoseconds) / 1e15

print("")
print(String(format: "ratio ours / RoutingKit (split + route)   %.2fx  (goal: at most 0.3x)", our / their))
print(String(format: "ratio ours / RoutingKit (pre-split)       %.2fx", our / theirBest))
print(String(format: "miss                                      %.0f ns (goal: at most 200 ns)", miss))
print(String(format: "ratio 10,000 routes / 100 routes          %.2fx  (goal: at most 1.3x)", our / atSmall))
print(String(format: "ratio 10,000 under one node / spread      %.2fx", atRoot / our))
print(String(format: "building the 10,000-route table           %.1f ms  (goal: at most 5 ms)", buildMilliseconds))
