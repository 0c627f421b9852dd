import Foundation
import Synchronization
import Testing
import Router

private struct Recording: RouteInterceptor {
    let name: String
    let priority: Int
    var scope: InterceptorScope = .all
    let log: Recorder
    var action: @Sendable (RouteRequest, InterceptorDecision) async -> Void = { _, decision in decision.proceed() }

    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async {
        log.add("\(name) \(request.url.original)")
        await action(request, decision)
    }
}

private struct RejectEverything: ExternalLinkVerifier {
    struct Expired: Error, CustomStringConvertible { var description: String { "the link expired" } }
    func verify(_ url: RouteURL) throws { throw Expired() }
}

@Suite struct InterceptorTests {
    private func router(timeout: Duration = .seconds(5)) throws -> Router {
        let router = Router(interceptorTimeout: timeout)
        try router.register("myapp://order/list", owner: "order", options: RouteOptions(labels: ["requires-login"])) { _ in "orders" }
        try router.register("myapp://user/login", owner: "user") { request in "login then \(request["next"] ?? "-")" }
        try router.register("myapp://product/<int:id>", owner: "product", options: RouteOptions(isPublic: true)) { request in "product \(request["id"] ?? "")" }
        return router
    }

    @Test func runInPriorityOrderOnlyWhereTheirScopeApplies() async throws {
        let router = try router()
        let log = Recorder()
        try router.addInterceptor(Recording(name: "logging", priority: 100, log: log))
        try router.addInterceptor(Recording(name: "login", priority: 50, scope: .labeled("requires-login"), log: log))
        try router.addInterceptor(Recording(name: "orders-only", priority: 10, scope: .host("order"), log: log))
        #expect(try await router.open("myapp://order/list", as: String.self) == "orders")
        #expect(try await router.open("myapp://product/1", as: String.self) == "product 1")
        #expect(log.all == ["logging myapp://order/list", "login myapp://order/list", "orders-only myapp://order/list", "logging myapp://product/1"])
        #expect(throws: RouterError.duplicateInterceptorPriority(50, name: "again", existing: "login")) {
            try router.addInterceptor(Recording(name: "again", priority: 50, log: log))
        }
    }

    @Test func redirectThenResumeAndReject() async throws {
        let router = try router()
        let signedIn = Mutex(false)
        try router.addInterceptor(
            Recording(name: "login", priority: 1, scope: .labeled("requires-login"), log: Recorder()) { request, decision in
                if signedIn.withLock({ $0 }) {
                    decision.proceed()
                } else {
                    decision.redirect(to: "myapp://user/login?next=\(PercentCoding.encode(request.url.original))")
                }
            })
        #expect(try await router.open("myapp://order/list", as: String.self) == "login then myapp://order/list")
        signedIn.withLock { $0 = true }
        #expect(try await router.open("myapp://order/list", as: String.self) == "orders")

        try router.addInterceptor(
            Recording(name: "maintenance", priority: 2, scope: .host("order"), log: Recorder()) { _, decision in
                decision.reject("orders are closed for maintenance")
            })
        await #expect(throws: RouterError.rejected(url: "myapp://order/list", interceptor: "maintenance", reason: "orders are closed for maintenance")) {
            try await router.open("myapp://order/list")
        }
    }

    @Test func aDecisionMayComeLaterButOnlyTheFirstCounts() async throws {
        let router = try router()
        let decisions = Mutex<[InterceptorDecision]>([])
        try router.addInterceptor(
            Recording(name: "async", priority: 1, log: Recorder()) { _, decision in
                decisions.withLock { $0.append(decision) }
                Task {
                    try? await Task.sleep(for: .milliseconds(20))
                    decision.proceed()
                    decision.reject("too late")
                    decision.proceed()
                }
            })
        #expect(try await router.open("myapp://product/2", as: String.self) == "product 2")
        try await Task.sleep(for: .milliseconds(50))
        #expect(decisions.withLock { $0.first?.ignoredDecisions } == 2)
    }

    @Test func anInterceptorThatNeverDecidesTimesOutAndIsCancelled() async throws {
        let router = try router(timeout: .milliseconds(100))
        let cancelled = Mutex(false)
        try router.addInterceptor(
            Recording(name: "stuck", priority: 1, log: Recorder()) { _, _ in
                try? await Task.sleep(for: .seconds(30))
                cancelled.withLock { $0 = Task.isCancelled }
            })
        let start = ContinuousClock.now
        await #expect(throws: RouterError.interceptorTimedOut(url: "myapp://product/3", interceptor: "stuck")) {
            try await router.open("myapp://product/3")
        }
        // Well under the interceptor's 30 s sleep, yet far from the timeout: tests running
        // alongside can keep the cooperative pool busy for seconds on a two-core machine.
        #expect(ContinuousClock.now - start < .seconds(25))
        try await Task.sleep(for: .milliseconds(100))
        #expect(cancelled.withLock { $0 })
    }

    @Test func externalLinksReachOnlyPublicRoutesWithAValidSignature() async throws {
        let router = try router()
        router.setWebContainer { _ in "web" }
        await #expect(throws: RouterError.badLinkSignature(url: "myapp://product/1", reason: "the app verifies no external links")) {
            try await router.open("myapp://product/1", origin: .deepLink)
        }
        router.setExternalLinkVerifier(RejectEverything())
        await #expect(throws: RouterError.badLinkSignature(url: "myapp://product/1", reason: "the link expired")) {
            try await router.open("myapp://product/1", origin: .push)
        }
        #expect(throws: RouterError.badLinkSignature(url: "myapp://product/1", reason: "the link expired")) {
            try router.checkSignature(ofExternalLink: "myapp://product/1", origin: .push)
        }
        #expect(try await router.open("myapp://product/1", as: String.self, origin: .push, signatureChecked: true) == "product 1")
        await #expect(throws: RouterError.notPublic(url: "myapp://order/list", origin: "push"), "a checked signature does not open a private route") {
            try await router.open("myapp://order/list", origin: .push, signatureChecked: true)
        }
        router.setExternalLinkVerifier(AcceptAll())
        #expect(try await router.open("myapp://product/1", as: String.self, origin: .webPage) == "product 1")
        await #expect(throws: RouterError.notPublic(url: "myapp://order/list", origin: "deep-link")) {
            try await router.open("myapp://order/list", origin: .deepLink)
        }
        await #expect(throws: RouterError.notPublic(url: "https://evil.example", origin: "deep-link")) {
            try await router.open("https://evil.example", origin: .deepLink)
        }
    }

    @Test func degradedRoutesGoToTheWebOrAnotherRoute() async throws {
        let router = try router()
        router.setWebContainer { request in "web \(request.url.original)" }
        let data = Data(#"{"rules": [{"pattern": "myapp://product/<int:id>", "target": "https://m.myapp.example/p/{id}", "reason": "broken"}]}"#.utf8)
        router.setDegradeTable(try DegradeTable.decode(data, source: "test"))
        #expect(try await router.open("myapp://product/42", as: String.self) == "web https://m.myapp.example/p/42")
        router.setDegradeTable(DegradeTable(rules: [.init(pattern: "myapp://order/list", target: "myapp://product/7")]))
        #expect(try await router.open("myapp://order/list", as: String.self) == "product 7")
        router.setDegradeTable(DegradeTable(rules: [.init(pattern: "myapp://order/list", target: "myapp://order/list")]))
        await #expect(throws: RouterError.tooManyRedirects("myapp://order/list")) { try await router.open("myapp://order/list") }
        #expect(throws: DegradeTableError.self) { try DegradeTable.decode(Data(#"{"rules": [{"pattern": "bad", "target": "x"}]}"#.utf8), source: "f") }
    }

    @Test func aDegradeRuleMatchesTheRouteOfItsShapeWhateverItsParametersAreCalled() async throws {
        let router = try router()
        router.setWebContainer { request in "web \(request.url.original)" }
        let data = Data(
            #"{"rules": [{"pattern": "myapp://product/<int:productID>", "target": "https://m.myapp.example/p/{id}"}], "sequence": 3, "later": true}"#.utf8)
        let table = try DegradeTable.decode(data, source: "test")
        #expect(table.sequence == 3, "unknown fields are ignored, known ones read")
        router.setDegradeTable(table)
        #expect(try await router.open("myapp://product/42", as: String.self) == "web https://m.myapp.example/p/42", "{id} is the registered route's name")
        router.setDegradeTable(DegradeTable(rules: [.init(pattern: "myapp://product/<int:productID>", target: "https://m.myapp.example/p/{productID}")]))
        #expect(try await router.open("myapp://product/42", as: String.self) == "web https://m.myapp.example/p/42", "{productID} is the rule's own name")
        let error = try #require(throws: DegradeTableError.self) {
            try DegradeTable.decode(Data(#"{"rules": [{"pattern": "bad", "target": "x"}]}"#.utf8), source: "f")
        }
        #expect(!error.description.contains(".."), "\(error)")
        let stray = DegradeTable(rules: [.init(pattern: "myapp://product/<int:id>", target: "x"), .init(pattern: "myapp://nowhere/<id>", target: "y")])
        #expect(stray.unmatchedRules(among: router.routes).map(\.pattern) == ["myapp://nowhere/<id>"])
    }

    @Test func theObserverHearsMissesDegradedRoutesRefusedLinksAndUnknownServices() async throws {
        let router = try router()
        let seen = Mutex<[RoutingEvent]>([])
        router.setObserver { event in seen.withLock { $0.append(event) } }
        router.setFallback { _ in "fallback" }
        router.setWebContainer { _ in "web" }
        _ = try await router.open("myapp://nothing/here")
        router.setDegradeTable(DegradeTable(rules: [.init(pattern: "myapp://order/list", target: "myapp://product/7", reason: "order is down")]))
        _ = try await router.open("myapp://order/list")
        _ = try? await router.open("myapp://order/list", origin: .deepLink)
        _ = try? router.services.resolve(Int.self)
        #expect(
            seen.withLock { $0 } == [
                .noRoute(url: "myapp://nothing/here", origin: .inApp),
                .degraded(url: "myapp://order/list", pattern: "myapp://order/list", target: "myapp://product/7", reason: "order is down"),
                .refusedExternalLink(reason: RouterError.notPublic(url: "myapp://order/list", origin: "deep-link").description),
                .unknownService("Int"),
            ])
    }

    @Test func anAppRoutesItsOwnSchemeOnly() throws {
        let router = Router()
        router.setAllowedSchemes(["MyApp"])
        try router.register("myapp://fine/:id", owner: "a") { _ in nil }
        for pattern in ["evil://steal/:token", "https://bank.example/:page"] {
            let error = #expect(throws: RouterError.self) { try router.register(pattern, owner: "b") { _ in nil } }
            #expect(error?.code == .schemeNotAllowed)
            #expect(error?.description.contains("it routes myapp://") == true)
        }
        #expect(throws: RouterError.self) { try router.register([RouteRegistration(pattern: try RoutePattern(parsing: "evil://x"), owner: "c") { _ in nil }]) }
        #expect(router.routes.map(\.pattern) == ["myapp://fine/:id"])
    }

}
