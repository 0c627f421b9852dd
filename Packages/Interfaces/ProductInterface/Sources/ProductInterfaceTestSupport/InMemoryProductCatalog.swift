import Models
public import ProductInterface

/// A ``ProductCatalog`` over a fixed list, for the tests and demos of components that use the catalog.
public struct InMemoryProductCatalog: ProductCatalog {
    /// The products, in catalog order.
    public var products: [ProductSummary]

    /// A catalog of `products` (by default ``preview``).
    public init(_ products: [ProductSummary] = InMemoryProductCatalog.preview) {
        self.products = products
    }

    public func allProducts() async throws -> [ProductSummary] { products }

    public func product(id: Int) async throws -> ProductSummary? { products.first { $0.id == id } }

    public func search(_ text: String) async throws -> [ProductSummary] {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return [] }
        return products.filter { $0.name.lowercased().contains(wanted) || $0.blurb.lowercased().contains(wanted) }
    }

    /// Three products for previews and tests: a mug (id 1), a pot (id 2) and coffee beans (id 3).
    public static let preview = [
        ProductSummary(id: 1, name: "Mug", price: Money(cents: 500), blurb: "Holds coffee."),
        ProductSummary(id: 2, name: "Pot", price: Money(cents: 900), blurb: "Makes tea."),
        ProductSummary(id: 3, name: "Coffee Beans", price: Money(cents: 1499), blurb: "Whole beans, 1 kg."),
    ]
}
