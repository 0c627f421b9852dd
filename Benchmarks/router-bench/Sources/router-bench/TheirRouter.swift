import RoutingKit

/// Builds RoutingKit's TrieRouter for a mix; a route's output is its index.
func theirs(_ mix: Mix) -> TrieRouter<Int> {
    let router = TrieRouter(Int.self)
    for (index, pattern) in mix.patterns.enumerated() { router.register(index, at: pattern.theirs) }
    return router
}

/// RoutingKit's lookup of pre-split paths: its best case. Returns how many matched.
func lookUp(_ paths: [[String]], in router: TrieRouter<Int>) -> Int {
    var found = 0
    var parameters = Parameters()
    for path in paths where router.route(path: path, parameters: &parameters) != nil { found += 1 }
    return found
}

/// RoutingKit's lookup of URL strings, split at `/` first, as a caller holding a URL must; with
/// `readingParameters`, also reads every captured value (`names`: each route's parameter names).
func lookUp(splitting urls: [String], in router: TrieRouter<Int>, readingParameters names: [[String]]? = nil) -> Int {
    var found = 0
    var parameters = Parameters()
    for url in urls {
        guard let route = router.route(path: Mix.split(url), parameters: &parameters) else { continue }
        found += 1
        for name in names?[route] ?? [] { found &+= parameters.get(name)?.utf8.count ?? 0 }
    }
    return found
}
