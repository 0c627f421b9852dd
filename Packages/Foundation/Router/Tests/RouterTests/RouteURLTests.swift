import Testing
@testable import Router

@Suite struct RouteURLTests {
    @Test func splitsSchemeHostSegmentsQueryAndFragment() throws {
        let url = try RouteURL("SHOP://Product/7/reviews?sort=new&page=2#top")
        #expect(url.scheme == "shop")
        #expect(url.host == "product")
        #expect(url.segments == ["7", "reviews"])
        #expect(url.query == ["sort": "new", "page": "2"])
        #expect(url.fragment == "top")
    }

    @Test func trailingAndDoubledSlashesDoNotMatter() throws {
        #expect(try RouteURL("shop://cart/").segments == [])
        #expect(try RouteURL("shop://a//b///").segments == ["b"])
        #expect(try RouteURL("shop://a//b///").host == "a")
    }

    @Test func decodesSegmentsAfterSplittingAndKeepsPlusInPaths() throws {
        let url = try RouteURL("shop://search/a%2Fb/c+d?q=c+d&r=%26")
        #expect(url.segments == ["a/b", "c+d"])
        #expect(url.query["q"] == "c d")
        #expect(url.query["r"] == "&")
    }

    @Test func firstRepeatedQueryValueWins() throws {
        let url = try RouteURL("shop://a?x=1&x=2")
        #expect(url.query["x"] == "1")
        #expect(url.queryItems.count == 2)
    }

    @Test(arguments: [
        "no-scheme", "1x://a", "shop://a/%zz", "shop://a/%4", "shop://a?x=%", "shop://a/%FF", "shop://a/\u{0}",
    ])
    func rejectsMalformedURLs(_ text: String) {
        #expect(throws: RouterError.self) { try RouteURL(text) }
    }

    @Test func enforcesLengthAndSegmentCaps() {
        let limits = RouterLimits(maxURLLength: 30, maxSegments: 3)
        #expect(throws: RouterError.self) { try RouteURL("shop://a/" + String(repeating: "x", count: 40), limits: limits) }
        #expect(throws: RouterError.self) { try RouteURL("shop://a/1/2/3/4", limits: limits) }
        #expect((try? RouteURL("shop://a/1/2/3", limits: limits)) != nil)
    }

    @Test func percentEncodingRoundTrips() {
        for text in ["a b", "a/b", "ü+%", "~._-"] {
            #expect(PercentCoding.decode(Substring(PercentCoding.encode(text)), plusIsSpace: false) == text)
        }
        #expect(PercentCoding.encode("a b/c") == "a%20b%2Fc")
    }
}
