import Shelf
import Testing

@Test func listsTheCatalog() {
    #expect(ShelfModule.page().lines == ["Emma", "Persuasion"])
}
