import Testing
@testable import Router

@Suite struct MatchingTests {
    private func router(_ patterns: [String]) throws -> Router {
        let router = Router()
        for pattern in patterns {
            try router.register(pattern, owner: "test") { request in request.pattern?.text }
        }
        return router
    }

    private func winner(_ router: Router, _ url: String) throws -> String? {
        try router.match(url)?.pattern?.text
    }

    @Test func literalBeatsTypedBeatsParameterBeatsWildcard() throws {
        let patterns = ["myapp://p/list", "myapp://p/<int:id>", "myapp://p/:slug", "myapp://p/*rest"]
        let router = try router(patterns)
        #expect(try winner(router, "myapp://p/list") == "myapp://p/list")
        #expect(try winner(router, "myapp://p/42") == "myapp://p/<int:id>")
        #expect(try winner(router, "myapp://p/mug") == "myapp://p/:slug")
        #expect(try winner(router, "myapp://p/a/b") == "myapp://p/*rest")
    }

    @Test func aPatternsHostIsDecodedAndLowerCasedAsAURLsIs() throws {
        let router = try router(["myapp://Caf%C3%A9/menu"])
        #expect(try RoutePattern(parsing: "myapp://Caf%C3%A9/menu").host == "café")
        #expect(try winner(router, "myapp://café/menu") == "myapp://Caf%C3%A9/menu")
        #expect(try router.lookup("myapp://CAF%C3%A9/menu")?.pattern.text == "myapp://Caf%C3%A9/menu")
        #expect(try RoutePattern(parsing: "myapp://Caf%C3%A9/menu").url(with: [:]) == "myapp://caf%C3%A9/menu")
        #expect(throws: RouterError.self) { try RoutePattern(parsing: "myapp://caf%zz/menu") }
        #expect(throws: RouterError.self) { try RoutePattern(parsing: "myapp://a/b\u{0}c") }
    }

    @Test func backtracksOutOfALiteralDeadEnd() throws {
        // vapor#3213 / routing-kit#92: '/:provider' and '/google/callback' must both keep working.
        let router = try router(["myapp://auth/:provider", "myapp://auth/google/callback"])
        #expect(try winner(router, "myapp://auth/google") == "myapp://auth/:provider")
        #expect(try winner(router, "myapp://auth/google/callback") == "myapp://auth/google/callback")
        #expect(try router.match("myapp://auth/google")?.pathParameters == ["provider": "google"])
    }

    @Test func backtracksFromTypedIntoPlainParameter() throws {
        let router = try router(["myapp://x/<int:id>/edit", "myapp://x/:name/view"])
        #expect(try winner(router, "myapp://x/5/view") == "myapp://x/:name/view")
        #expect(try winner(router, "myapp://x/5/edit") == "myapp://x/<int:id>/edit")
    }

    @Test func resultDoesNotDependOnRegistrationOrder() throws {
        let patterns = ["myapp://a/:x/b", "myapp://a/c/:y", "myapp://a/<int:n>/b", "myapp://a/*", "myapp://a/<uuid:u>", "myapp://a/c/d"]
        let urls = [
            "myapp://a/c/b", "myapp://a/1/b", "myapp://a/c/d", "myapp://a/zz", "myapp://a/c/d/e",
            "myapp://a/123e4567-e89b-12d3-a456-426614174000", "myapp://a/1",
        ]
        let reference = try router(patterns)
        let expected = try urls.map { try winner(reference, $0) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let shuffled = try router(patterns.shuffled(using: &generator))
            #expect(try urls.map { try winner(shuffled, $0) } == expected)
        }
        #expect(
            expected == [
                "myapp://a/c/:y", "myapp://a/<int:n>/b", "myapp://a/c/d", "myapp://a/*", "myapp://a/*",
                "myapp://a/<uuid:u>", "myapp://a/*",
            ])
    }

    @Test func wildcardNeedsAtLeastOneSegmentAndCapturesTheRest() throws {
        let router = try router(["myapp://files/*path"])
        #expect(try router.match("myapp://files") == nil)
        #expect(try router.match("myapp://files/a/b%20c")?.pathParameters == ["path": "a/b c"])
    }

    @Test func hostIsTheFirstLevelNotAPathSegment() throws {
        // JLRoutes#67: the host must not be taken as a path component.
        let router = try router(["myapp://user/:id"])
        #expect(try router.match("myapp://user") == nil)
        #expect(try router.match("myapp://x/user/7") == nil)
        #expect(try router.match("myapp://USER/7")?.pathParameters == ["id": "7"])
    }

    @Test func literalsAreCaseSensitive() throws {
        let router = try router(["myapp://a/List"])
        #expect(try router.match("myapp://a/list") == nil)
        #expect(try router.match("myapp://a/List") != nil)
    }

    @Test func encodedSlashAndPlusStayInsideTheirParameter() throws {
        // JLRoutes#32.
        let router = try router(["myapp://search/:term"])
        #expect(try router.match("myapp://search/a%2Fb")?.pathParameters["term"] == "a/b")
        #expect(try router.match("myapp://search/a+b")?.pathParameters["term"] == "a+b")
    }

    @Test func queryNeverOverridesPathParameters() throws {
        let router = try router(["myapp://p/:id"])
        let request = try #require(try router.match("myapp://p/7?id=9&color=red"))
        #expect(request["id"] == "7")
        #expect(request.parameters == ["id": "7", "color": "red"])
        #expect(request.query["id"] == "9")
    }

    @Test func schemesAreSeparateTables() throws {
        // URLNavigator#111: an unrelated scheme must never match by accident.
        let router = try router(["myapp://open/:x"])
        #expect(try router.match("x://open/1") == nil)
    }

    @Test func customParameterTypes() throws {
        let router = Router()
        try router.register(parameterType: ParameterType(name: "sku", precedence: 5) { $0.hasPrefix("SKU-") })
        try router.register("myapp://p/<sku:code>", owner: "t") { _ in "sku" }
        try router.register("myapp://p/<int:id>", owner: "t") { _ in "int" }
        #expect(try router.match("myapp://p/SKU-9")?.pattern?.text == "myapp://p/<sku:code>")
        #expect(try router.match("myapp://p/9")?.pattern?.text == "myapp://p/<int:id>")
        #expect(throws: RouterError.duplicateParameterType("sku")) {
            try router.register(parameterType: ParameterType(name: "sku") { _ in true })
        }
        #expect(throws: RouterError.self) { try router.register("myapp://p/<nope:x>", owner: "t") { _ in nil } }
    }

    @Test func sameShapeFromTwoComponentsIsAnErrorNamingBoth() throws {
        let router = Router()
        try router.register("myapp://product/:id", owner: "product") { _ in nil }
        #expect(
            throws: RouterError.duplicateRoute(
                pattern: "myapp://product/:sku", owner: "catalog", existingPattern: "myapp://product/:id", existingOwner: "product"
            )
        ) {
            try router.register("myapp://product/:sku", owner: "catalog") { _ in nil }
        }
    }

    @Test func unregisterFreesTheShape() throws {
        let router = try router(["myapp://a/:x"])
        #expect(try router.unregister("myapp://a/:y"))
        #expect(try router.match("myapp://a/1") == nil)
        #expect(try !router.unregister("myapp://a/:y"))
        try router.register("myapp://a/:z", owner: "t") { _ in nil }
        #expect(router.routes.map(\.pattern) == ["myapp://a/:z"])
    }

    @Test(arguments: ["nope", "myapp://", "myapp://a/:", "myapp://a/*x/b", "myapp://a/<int>", "myapp://a/:x/:x", "myapp://:h/x", "myapp://a?x=1"])
    func rejectsMalformedPatterns(_ pattern: String) {
        #expect(throws: RouterError.self) { try RoutePattern(parsing: pattern) }
    }
}
