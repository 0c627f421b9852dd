import Router

/// The workspace's router with a mix's routes (in a file of its own: RoutingKit also has a `Router`).
struct OurRouter {
    let router: Router

    init(mix: Mix) throws {
        router = Router()
        for pattern in mix.patterns { try router.register(pattern.ours, owner: "bench") { _ in Optional<Int>.none } }
    }

    func match(_ url: String) throws -> RouteMatch? { try router.lookup(url) }
}
