import Reader
import Testing
import Values

@Test func namesTheBook() {
    #expect(ReaderModule.page(for: BookID(3)).lines == ["Reading book 3."])
}
