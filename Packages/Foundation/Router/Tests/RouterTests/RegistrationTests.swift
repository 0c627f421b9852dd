import Testing
@testable import Router

/// `register(_ routes:)`: a module's routes go in together or not at all.
@Suite struct RegistrationTests {
    private func routes(_ patterns: [String], owner: String) throws -> [RouteRegistration] {
        try patterns.map { pattern in try RouteRegistration(pattern, owner: owner) { request in request.pattern?.text } }
    }

    /// A router holding `myapp://a/b/c` and `myapp://a/:id`, already looked up once so a snapshot is published.
    private func populated() throws -> Router {
        let router = Router()
        try router.register(routes(["myapp://a/b/c", "myapp://a/:id"], owner: "existing"))
        #expect(try router.lookup("myapp://a/b/c")?.owner == "existing")
        return router
    }

    private func table(_ router: Router) -> [String] {
        router.routes.map { "\($0.pattern) \($0.owner)" }
    }

    @Test func registersEveryRouteOfTheBatch() throws {
        let router = try populated()
        try router.register(routes(["myapp://a/b", "myapp://a/<int:n>/x", "myapp://z/*rest"], owner: "module"))
        #expect(try router.lookup("myapp://a/b")?.owner == "module")
        #expect(try router.lookup("myapp://a/7/x")?.parameter("n") == "7")
        #expect(try router.lookup("myapp://z/1/2")?.parameter("rest") == "1/2")
        #expect(try router.lookup("myapp://a/b/c")?.owner == "existing")
        #expect(router.routes.count == 5)
    }

    @Test func aShapeTakenInTheTableAddsNoneOfTheBatch() throws {
        let router = try populated()
        let before = table(router)
        let batch = try routes(["myapp://a/b", "myapp://a/b/d", "myapp://q/*", "myapp://a/:other"], owner: "module")
        #expect(
            throws: RouterError.duplicateRoute(
                pattern: "myapp://a/:other", owner: "module", existingPattern: "myapp://a/:id", existingOwner: "existing")
        ) {
            try router.register(batch)
        }
        #expect(table(router) == before)
        #expect(try router.lookup("myapp://a/b")?.pattern.text == "myapp://a/:id")
        #expect(try router.lookup("myapp://a/b/d") == nil)
        #expect(try router.lookup("myapp://q/1") == nil)
        // Routes that shared nodes with the withdrawn ones still match, and the batch can be registered once fixed.
        #expect(try router.lookup("myapp://a/b/c")?.owner == "existing")
        try router.register(Array(batch.dropLast()))
        #expect(try router.lookup("myapp://a/b/d")?.owner == "module")
    }

    @Test func twoRoutesOfOneShapeInTheBatchAddNone() throws {
        let router = try populated()
        let before = table(router)
        #expect(
            throws: RouterError.duplicateRoute(
                pattern: "myapp://m/:y", owner: "module", existingPattern: "myapp://m/:x", existingOwner: "module")
        ) {
            try router.register(routes(["myapp://m/list", "myapp://m/:x", "myapp://m/:y"], owner: "module"))
        }
        #expect(table(router) == before)
        #expect(try router.lookup("myapp://m/list") == nil)
    }

    @Test func anUnknownParameterTypeAddsNoneOfTheBatch() throws {
        let router = try populated()
        let before = table(router)
        #expect(throws: RouterError.self) {
            try router.register(routes(["myapp://n/list", "myapp://n/<sku:code>"], owner: "module"))
        }
        #expect(table(router) == before)
        #expect(try router.lookup("myapp://n/list") == nil)
        try router.register(parameterType: ParameterType(name: "sku") { $0.hasPrefix("SKU-") })
        try router.register(routes(["myapp://n/list", "myapp://n/<sku:code>"], owner: "module"))
        #expect(try router.lookup("myapp://n/SKU-1")?.parameter("code") == "SKU-1")
    }

    @Test func typedRoutesRegisterInABatch() throws {
        struct Detail: Route {
            static let pattern: RoutePattern = "myapp://detail/<int:id>"
            var id: Int
        }
        let router = Router()
        try router.register([RouteRegistration(Detail.self, owner: "module") { detail, _ in detail.id * 2 }])
        #expect(try router.lookup("myapp://detail/21")?.pattern == Detail.pattern)
    }
}
