import Router

// In a file of its own, importing only Router: RoutingKit also has a type named `Router`.

/// Builds the workspace's router for a mix, registering the routes as modules do: all in one call.
func ours(_ mix: Mix) throws -> Router {
    let router = Router()
    try router.register(mix.patterns.map { try RouteRegistration($0.ours, owner: "bench") { _ in Optional<Int>.none } })
    return router
}

/// Builds the same router one `register` call per route, as code that adds routes singly does.
func oursOneByOne(_ mix: Mix) throws -> Router {
    let router = Router()
    for pattern in mix.patterns { try router.register(pattern.ours, owner: "bench") { _ in Optional<Int>.none } }
    return router
}

/// Looks up each URL; with `readingParameters`, also reads every captured value, as a caller would.
/// Returns a count of matches (and bytes read) so that nothing is optimized away.
func lookUp(_ urls: [String], in router: Router, readingParameters: Bool = false) -> Int {
    var found = 0
    for url in urls {
        guard let match = try? router.lookup(url) else { continue }
        found += 1
        if readingParameters {
            for name in match.parameterNames { found &+= match.parameter(name)?.utf8.count ?? 0 }
        }
    }
    return found
}
