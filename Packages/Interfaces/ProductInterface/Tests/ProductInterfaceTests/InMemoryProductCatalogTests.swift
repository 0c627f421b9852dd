import ProductInterface
import ProductInterfaceTestSupport
import Testing

@Suite struct InMemoryProductCatalogTests {
    @Test func findsByIdAndSearchesNameAndBlurbIgnoringCase() async throws {
        let catalog = InMemoryProductCatalog()
        #expect(try await catalog.allProducts().map(\.id) == InMemoryProductCatalog.preview.map(\.id))
        #expect(try await catalog.product(id: 2)?.name == "Pot")
        #expect(try await catalog.product(id: 99) == nil)
        #expect(try await catalog.search("MUG").map(\.id) == [1])
        #expect(try await catalog.search("tea").map(\.id) == [2])
        #expect(try await catalog.search("  ").isEmpty)
    }
}
