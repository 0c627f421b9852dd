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
        let patterns = ["shop://p/list", "shop://p/<int:id>", "shop://p/:slug", "shop://p/*rest"]
        let router = try router(patterns)
        #expect(try winner(router, "shop://p/list") == "shop://p/list")
        #expect(try winner(router, "shop://p/42") == "shop://p/<int:id>")
        #expect(try winner(router, "shop://p/mug") == "shop://p/:slug")
        #expect(try winner(router, "shop://p/a/b") == "shop://p/*rest")
    }

    @Test func aPatternsHostIsDecodedAndLowerCasedAsAURLsIs() throws {
        let router = try router(["shop://Caf%C3%A9/menu"])
        #expect(try RoutePattern(parsing: "shop://Caf%C3%A9/menu").host == "café")
        #expect(try winner(router, "shop://café/menu") == "shop://Caf%C3%A9/menu")
        #expect(try router.lookup("shop://CAF%C3%A9/menu")?.pattern.text == "shop://Caf%C3%A9/menu")
        #expect(try RoutePattern(parsing: "shop://Caf%C3%A9/menu").url(with: [:]) == "shop://caf%C3%A9/menu")
        #expect(throws: RouterError.self) { try RoutePattern(parsing: "shop://caf%zz/menu") }
        #expect(throws: RouterError.self) { try RoutePattern(parsing: "shop://a/b\u{0}c") }
    }

    @Test func backtracksOutOfALiteralDeadEnd() throws {
        // vapor#3213 / routing-kit#92: '/:provider' and '/google/callback' must both keep working.
        let router = try router(["shop://auth/:provider", "shop://auth/google/callback"])
        #expect(try winner(router, "shop://auth/google") == "shop://auth/:provider")
        #expect(try winner(router, "shop://auth/google/callback") == "shop://auth/google/callback")
        #expect(try router.match("shop://auth/google")?.pathParameters == ["provider": "google"])
    }

    @Test func backtracksFromTypedIntoPlainParameter() throws {
        let router = try router(["shop://x/<int:id>/edit", "shop://x/:name/view"])
        #expect(try winner(router, "shop://x/5/view") == "shop://x/:name/view")
        #expect(try winner(router, "shop://x/5/edit") == "shop://x/<int:id>/edit")
    }

    @Test func resultDoesNotDependOnRegistrationOrder() throws {
        let patterns = ["shop://a/:x/b", "shop://a/c/:y", "shop://a/<int:n>/b", "shop://a/*", "shop://a/<uuid:u>", "shop://a/c/d"]
        let urls = [
            "shop://a/c/b", "shop://a/1/b", "shop://a/c/d", "shop://a/zz", "shop://a/c/d/e",
            "shop://a/123e4567-e89b-12d3-a456-426614174000", "shop://a/1",
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
                "shop://a/c/:y", "shop://a/<int:n>/b", "shop://a/c/d", "shop://a/*", "shop://a/*",
                "shop://a/<uuid:u>", "shop://a/*",
            ])
    }

    @Test func wildcardNeedsAtLeastOneSegmentAndCapturesTheRest() throws {
        let router = try router(["shop://files/*path"])
        #expect(try router.match("shop://files") == nil)
        #expect(try router.match("shop://files/a/b%20c")?.pathParameters == ["path": "a/b c"])
    }

    @Test func hostIsTheFirstLevelNotAPathSegment() throws {
        // JLRoutes#67: the host must not be taken as a path component.
        let router = try router(["shop://user/:id"])
        #expect(try router.match("shop://user") == nil)
        #expect(try router.match("shop://x/user/7") == nil)
        #expect(try router.match("shop://USER/7")?.pathParameters == ["id": "7"])
    }

    @Test func literalsAreCaseSensitive() throws {
        let router = try router(["shop://a/List"])
        #expect(try router.match("shop://a/list") == nil)
        #expect(try router.match("shop://a/List") != nil)
    }

    @Test func encodedSlashAndPlusStayInsideTheirParameter() throws {
        // JLRoutes#32.
        let router = try router(["shop://search/:term"])
        #expect(try router.match("shop://search/a%2Fb")?.pathParameters["term"] == "a/b")
        #expect(try router.match("shop://search/a+b")?.pathParameters["term"] == "a+b")
    }

    @Test func queryNeverOverridesPathParameters() throws {
        let router = try router(["shop://p/:id"])
        let request = try #require(try router.match("shop://p/7?id=9&color=red"))
        #expect(request["id"] == "7")
        #expect(request.parameters == ["id": "7", "color": "red"])
        #expect(request.query["id"] == "9")
    }

    @Test func schemesAreSeparateTables() throws {
        // URLNavigator#111: an unrelated scheme must never match by accident.
        let router = try router(["shop://open/:x"])
        #expect(try router.match("x://open/1") == nil)
    }

    @Test func customParameterTypes() throws {
        let router = Router()
        try router.register(parameterType: ParameterType(name: "sku", precedence: 5) { $0.hasPrefix("SKU-") })
        try router.register("shop://p/<sku:code>", owner: "t") { _ in "sku" }
        try router.register("shop://p/<int:id>", owner: "t") { _ in "int" }
        #expect(try router.match("shop://p/SKU-9")?.pattern?.text == "shop://p/<sku:code>")
        #expect(try router.match("shop://p/9")?.pattern?.text == "shop://p/<int:id>")
        #expect(throws: RouterError.duplicateParameterType("sku")) {
            try router.register(parameterType: ParameterType(name: "sku") { _ in true })
        }
        #expect(throws: RouterError.self) { try router.register("shop://p/<nope:x>", owner: "t") { _ in nil } }
    }

    @Test func sameShapeFromTwoComponentsIsAnErrorNamingBoth() throws {
        let router = Router()
        try router.register("shop://product/:id", owner: "product") { _ in nil }
        #expect(
            throws: RouterError.duplicateRoute(
                pattern: "shop://product/:sku", owner: "catalog", existingPattern: "shop://product/:id", existingOwner: "product"
            )
        ) {
            try router.register("shop://product/:sku", owner: "catalog") { _ in nil }
        }
    }

    @Test func unregisterFreesTheShape() throws {
        let router = try router(["shop://a/:x"])
        #expect(try router.unregister("shop://a/:y"))
        #expect(try router.match("shop://a/1") == nil)
        #expect(try !router.unregister("shop://a/:y"))
        try router.register("shop://a/:z", owner: "t") { _ in nil }
        #expect(router.routes.map(\.pattern) == ["shop://a/:z"])
    }

    @Test(arguments: ["nope", "shop://", "shop://a/:", "shop://a/*x/b", "shop://a/<int>", "shop://a/:x/:x", "shop://:h/x", "shop://a?x=1"])
    func rejectsMalformedPatterns(_ pattern: String) {
        #expect(throws: RouterError.self) { try RoutePattern(parsing: pattern) }
    }
}
