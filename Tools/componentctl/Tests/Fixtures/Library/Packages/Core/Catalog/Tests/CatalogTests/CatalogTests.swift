import Catalog
import Testing
import Values

@Test func numbersFromOne() {
    #expect(Catalog(titles: ["Emma"]).title(of: BookID(1)) == "Emma")
    #expect(Catalog(titles: ["Emma"]).title(of: BookID(2)) == nil)
}
