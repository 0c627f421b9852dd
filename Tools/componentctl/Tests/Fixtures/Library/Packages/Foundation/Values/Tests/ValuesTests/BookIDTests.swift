import Testing
import Values

@Test func idsCompareByNumber() {
    #expect(BookID(7) == BookID(7))
    #expect(BookID(7) != BookID(8))
}
