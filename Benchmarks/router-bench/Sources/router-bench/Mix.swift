import RoutingKit

/// The route mix of a large app: 70% static, 20% one parameter, 10% parameter then literal, spread
/// over `components` first levels; lookups hit 95% of the time in a scrambled order and miss 5%.
struct Mix {
    var patterns: [(ours: String, theirs: [PathComponent])] = []
    var hits: [String] = []
    let components: Int

    init(routes: Int, components: Int) {
        self.components = components
        for index in 0..<routes {
            let host = "c\(index % components)"
            switch index % 10 {
            case 0..<7:
                patterns.append(("myapp://\(host)/page\(index)", [.constant(host), .constant("page\(index)")]))
                hits.append("myapp://\(host)/page\(index)")
            case 7, 8:
                patterns.append(("myapp://\(host)/item\(index)/:id", [.constant(host), .constant("item\(index)"), .parameter("id")]))
                hits.append("myapp://\(host)/item\(index)/42")
            default:
                patterns.append(("myapp://\(host)/:id/edit\(index)", [.constant(host), .parameter("id"), .constant("edit\(index)")]))
                hits.append("myapp://\(host)/7/edit\(index)")
            }
        }
    }

    /// `count` lookups: 95% hits in a scrambled order, 5% misses. Each is a string of its own, as
    /// each request's URL is: hits of one route never share storage (which would keep the 100-route
    /// table's 100 URLs in the cache while the 10,000-route one's miss it).
    func lookups(_ count: Int) -> [String] {
        (0..<count).map { index in
            let url = index % 20 == 19 ? "myapp://c\(index % components)/missing\(index)" : hits[(index &* 7919) % hits.count]
            return String(decoding: Array(url.utf8), as: UTF8.self)
        }
    }

    /// The misses among `lookups(count)`.
    func misses(_ count: Int) -> [String] {
        lookups(count).enumerated().filter { $0.offset % 20 == 19 }.map(\.element)
    }

    /// Each route's parameter names, by route index.
    var parameterNames: [[String]] {
        patterns.map { pattern in
            pattern.theirs.compactMap { component in
                if case .parameter(let name) = component { name } else { nil }
            }
        }
    }

    /// The path RoutingKit routes: the URL without its scheme, split at `/`.
    static func split(_ url: String) -> [String] {
        url.dropFirst("myapp://".count).split(separator: "/").map(String.init)
    }
}
