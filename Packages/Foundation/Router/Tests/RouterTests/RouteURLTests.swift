import Testing
@testable import Router

@Suite struct RouteURLTests {
    @Test func splitsSchemeHostSegmentsQueryAndFragment() throws {
        let url = try RouteURL("MYAPP://Product/7/reviews?sort=new&page=2#top")
        #expect(url.scheme == "myapp")
        #expect(url.host == "product")
        #expect(url.segments == ["7", "reviews"])
        #expect(url.query == ["sort": "new", "page": "2"])
        #expect(url.fragment == "top")
    }

    @Test func trailingAndDoubledSlashesDoNotMatter() throws {
        #expect(try RouteURL("myapp://cart/").segments == [])
        #expect(try RouteURL("myapp://a//b///").segments == ["b"])
        #expect(try RouteURL("myapp://a//b///").host == "a")
    }

    @Test func decodesSegmentsAfterSplittingAndKeepsPlusInPaths() throws {
        let url = try RouteURL("myapp://search/a%2Fb/c+d?q=c+d&r=%26")
        #expect(url.segments == ["a/b", "c+d"])
        #expect(url.query["q"] == "c d")
        #expect(url.query["r"] == "&")
    }

    @Test func firstRepeatedQueryValueWins() throws {
        let url = try RouteURL("myapp://a?x=1&x=2")
        #expect(url.query["x"] == "1")
        #expect(url.queryItems.count == 2)
    }

    @Test(arguments: [
        "no-scheme", "1x://a", "myapp://a/%zz", "myapp://a/%4", "myapp://a?x=%", "myapp://a/%FF", "myapp://a/\u{0}",
    ])
    func rejectsMalformedURLs(_ text: String) {
        #expect(throws: RouterError.self) { try RouteURL(text) }
    }

    @Test func enforcesLengthAndSegmentCaps() {
        let limits = RouterLimits(maxURLLength: 30, maxSegments: 3)
        #expect(throws: RouterError.self) { try RouteURL("myapp://a/" + String(repeating: "x", count: 40), limits: limits) }
        #expect(throws: RouterError.self) { try RouteURL("myapp://a/1/2/3/4", limits: limits) }
        #expect((try? RouteURL("myapp://a/1/2/3", limits: limits)) != nil)
    }

    @Test func percentEncodingRoundTrips() {
        for text in ["a b", "a/b", "ü+%", "~._-"] {
            #expect(PercentCoding.decode(Substring(PercentCoding.encode(text)), plusIsSpace: false) == text)
        }
        #expect(PercentCoding.encode("a b/c") == "a%20b%2Fc")
    }
}
