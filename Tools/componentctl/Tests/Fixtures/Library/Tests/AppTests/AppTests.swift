import Shelf
import Testing

@Test func theShelfListsBooks() {
    #expect(!ShelfModule.page().lines.isEmpty)
}
