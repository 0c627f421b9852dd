public import ProductInterface
import Models

/// The catalog shipped with the app; a real one would sync from the backend through a core service.
public struct BuiltInCatalog: ProductCatalog {
    private let products: [ProductSummary]

    /// The built-in products, or `products` for tests and demos.
    public init(products: [ProductSummary] = BuiltInCatalog.defaultProducts) {
        self.products = products
    }

    public func allProducts() throws -> [ProductSummary] { products }

    public func product(id: Int) throws -> ProductSummary? { products.first { $0.id == id } }

    public func search(_ text: String) throws -> [ProductSummary] {
        products.filter { $0.name.localizedCaseInsensitiveContains(text) || $0.blurb.localizedCaseInsensitiveContains(text) }
    }

    /// The products the shop sells.
    public static let defaultProducts: [ProductSummary] = [
        ProductSummary(id: 1, name: "Coffee Mug", price: Money(cents: 1250), blurb: "A 350 ml stoneware mug that keeps coffee warm."),
        ProductSummary(id: 2, name: "Tea Kettle", price: Money(cents: 3999), blurb: "A 1.2 l steel kettle with a whistle."),
        ProductSummary(id: 3, name: "Pour-over Set", price: Money(cents: 2450), blurb: "A glass dripper, a carafe and 40 filters."),
        ProductSummary(id: 4, name: "Espresso Cups", price: Money(cents: 1800), blurb: "Two double-walled glass cups of 80 ml."),
        ProductSummary(id: 5, name: "Coffee Beans", price: Money(cents: 1499), blurb: "1 kg of medium-roast beans from Huila."),
        ProductSummary(id: 6, name: "Travel Mug", price: Money(cents: 2200), blurb: "A leak-proof 450 ml travel mug."),
        ProductSummary(id: 7, name: "Milk Frother", price: Money(cents: 2999), blurb: "A hand frother with two whisks."),
        ProductSummary(id: 8, name: "Grinder", price: Money(cents: 5900), blurb: "A conical burr grinder with 18 settings."),
    ]
}
