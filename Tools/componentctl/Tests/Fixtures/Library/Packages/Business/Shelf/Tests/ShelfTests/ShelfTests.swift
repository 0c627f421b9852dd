import ReaderInterfaceTestSupport
import Shelf
import Testing

@Test func listsTheCatalog() {
    #expect(ShelfModule.page().lines == ["Emma", "Persuasion"])
}

@Test func theReadersFakeAnswersAsConfigured() async throws {
    #expect(try await FixedBookmarks([.init(1): 12]).bookmark(of: .init(1)) == 12)
}
