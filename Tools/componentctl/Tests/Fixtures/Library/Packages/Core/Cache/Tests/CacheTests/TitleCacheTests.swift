import Cache
import Testing
import Values

@Test func keepsWhatItIsGiven() {
    var cache = TitleCache()
    cache[BookID(1)] = "Emma"
    #expect(cache[BookID(1)] == "Emma")
}
