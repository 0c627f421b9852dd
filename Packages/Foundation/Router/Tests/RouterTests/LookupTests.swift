import Testing
import Router

/// `lookup(_:)` matches on the URL's bytes and decodes only URLs that need it. These tests hold it
/// to an independent oracle: every registered pattern tried against the parsed URL, the best one
/// chosen by comparing segment kinds position by position.
@Suite struct LookupTests {
    private static let patternSegments = ["p", "q", "P", "a b", "7", ":x", ":y", "<int:n>", "<uuid:u>", "*rest", "*"]
    private static let urlSegments = [
        "p", "q", "P", "7", "-3", "a%20b", "a+b", "x%2Fy", "%70", "", "9999999999999999999999",
        "123e4567-e89b-12d3-a456-426614174000", "%zz", "ü",
    ]

    /// The oracle: how a route ranks at one position; lower wins.
    private static func rank(_ segment: RoutePattern.Segment) -> [Int] {
        switch segment {
        case .literal: [0]
        case .typed(_, let type): [1, type == "int" ? 10 : 20]
        case .parameter: [2]
        case .wildcard: [3]
        }
    }

    /// The oracle's answer: the winning pattern and its captures, or nil.
    private static func expected(_ url: RouteURL, among patterns: [RoutePattern]) -> (pattern: String, captures: [String: String])? {
        var best: (ranks: [[Int]], pattern: String, captures: [String: String])?
        for pattern in patterns where pattern.scheme == url.scheme && pattern.host == url.host {
            var ranks: [[Int]] = []
            var captures: [String: String] = [:]
            var matches = true
            var consumed = 0
            for (index, segment) in pattern.segments.enumerated() {
                guard index < url.segments.count else { matches = false; break }
                let value = url.segments[index]
                ranks.append(rank(segment))
                switch segment {
                case .literal(let text): matches = text == value
                case .parameter(let name): captures[name] = value
                case .typed(let name, let type):
                    matches = (type == "int" ? ParameterType.int : ParameterType.uuid).matches(value)
                    captures[name] = value
                case .wildcard(let name): captures[name] = url.segments[index...].joined(separator: "/")
                }
                consumed = index + 1
                if case .wildcard = segment { consumed = url.segments.count }
                if !matches { break }
            }
            guard matches, consumed == url.segments.count else { continue }
            if best.map({ ranks.lexicographicallyPrecedes($0.ranks) { $0.lexicographicallyPrecedes($1) } }) ?? true {
                best = (ranks, pattern.text, captures)
            }
        }
        return best.map { ($0.pattern, $0.captures) }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func agreesWithTheOracle(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let router = Router()
        var registered: [RoutePattern] = []
        for _ in 0..<60 {
            let count = generator.below(4)
            let segments = (0..<count).map { _ in generator.pick(Self.patternSegments) }
            let text = "myapp://" + generator.pick(["a", "b", "B"]) + segments.map { "/" + $0.replacingOccurrences(of: " ", with: "%20") }.joined()
            guard let pattern = try? RoutePattern(parsing: text) else { continue }
            if (try? router.register(text, owner: "t") { _ in nil }) != nil { registered.append(pattern) }
        }
        for _ in 0..<3_000 {
            let count = generator.below(5)
            var url = generator.pick(["myapp", "MYAPP", "x"]) + "://" + generator.pick(["a", "A", "b", "%61", ""])
            for _ in 0..<count { url += generator.pick(["/", "/", "//"]) + generator.pick(Self.urlSegments) }
            url += generator.pick(["", "", "/", "?id=1&x=%41", "#frag", "?bad=%"])
            let parsed = try? RouteURL(url)
            let outcome = Result { try router.lookup(url) }
            guard let parsed, case .success(let found) = outcome else {
                #expect(parsed == nil && (try? outcome.get()) == nil, "\(url): parsing and lookup disagree on whether it is valid")
                continue
            }
            let oracle = Self.expected(parsed, among: registered)
            #expect(found?.pattern.text == oracle?.pattern, "\(url)")
            #expect(found?.pathParameters == oracle?.captures, "\(url)")
            #expect(try router.match(url)?.pattern?.text == oracle?.pattern, "\(url)")
        }
    }

    @Test func readsParametersLazilyFromTheURL() throws {
        let router = Router()
        try router.register("myapp://search/:term/*rest", owner: "search") { _ in nil }
        let match = try #require(try router.lookup("myapp://search/a%2Fb/c//d+e?term=ignored"))
        #expect(match.parameterNames == ["term", "rest"])
        #expect(match.parameter("term") == "a/b")
        #expect(match.parameter("rest") == "c/d+e")
        #expect(match.parameter("nope") == nil)
        #expect(match.owner == "search")
        let plain = try #require(try router.lookup("myapp://search/x/y"))
        #expect(plain.pathParameters == ["term": "x", "rest": "y"])
    }

    @Test func aChangedTableIsSeenByTheNextLookupAndOldMatchesStayValid() throws {
        let router = Router()
        try router.register("myapp://a/one", owner: "a") { _ in nil }
        let before = try #require(try router.lookup("myapp://a/one"))
        try router.register("myapp://a/two", owner: "a") { _ in nil }
        #expect(try router.lookup("myapp://a/two") != nil)
        #expect(try router.unregister("myapp://a/one"))
        #expect(try router.lookup("myapp://a/one") == nil)
        #expect(before.pattern.text == "myapp://a/one") // its table is kept alive by the match
        #expect(router.canOpen("myapp://a/two") && !router.canOpen("myapp://a/one"))
    }

    @Test func malformedURLsThrowTheSameErrorAsParsing() {
        for url in ["nope", "1x://a", "myapp://a/%zz", "myapp://a\u{0}", String(repeating: "/x", count: 40)] {
            let parseError = Result { try RouteURL(url) }.failure
            let lookupError = Result { try Router().lookup(url) }.failure
            #expect(parseError != nil && parseError == lookupError, "\(url)")
        }
    }
}

extension Result {
    fileprivate var failure: RouterError? {
        if case .failure(let error) = self { error as? RouterError } else { nil }
    }
}
