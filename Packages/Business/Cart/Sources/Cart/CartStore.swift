public import CartInterface
import OrderInterface
public import ProductInterface
public import Router
public import Storage

/// The cart, kept in the app's database so it survives a restart.
///
/// Prices come from the catalog when a product is added; every change publishes
/// ``CartChanged``, and the cart empties itself when an ``OrderPlaced`` event arrives.
public final class CartStore: CartService {
    private let records: StoredCollection<CartLine>
    private let catalog: @Sendable () throws -> any ProductCatalog
    private let events: EventBus?

    /// A cart stored in `storage`, pricing from `catalog`, announcing changes on `events`.
    public init(storage: Storage, catalog: @escaping @Sendable () throws -> any ProductCatalog, events: EventBus? = nil) {
        self.records = storage.collection("cart.lines")
        self.catalog = catalog
        self.events = events
    }

    public func lines() throws -> [CartLine] { try records.values() }

    @discardableResult
    public func add(productID: Int, quantity: Int) async throws -> CartLine {
        guard (1...CartStore.maxQuantity).contains(quantity) else {
            throw CartError.badQuantity(quantity)
        }
        guard let product = try await catalog().product(id: productID) else { throw CartError.unknownProduct(productID) }
        var line = CartLine(productID: productID, name: product.name, unitPrice: product.price, quantity: 0)
        try records.update(String(productID)) { existing in
            line = existing ?? line
            line.quantity = min(line.quantity + quantity, CartStore.maxQuantity)
            return line
        }
        try announce()
        return line
    }

    @discardableResult
    public func remove(productID: Int) throws -> Bool {
        let removed = try records.remove(String(productID))
        if removed { try announce() }
        return removed
    }

    public func clear() throws {
        try records.removeAll()
        try announce()
    }

    /// The most units of one product a cart holds.
    public static let maxQuantity = 99

    private func announce() throws {
        guard let events else { return }
        events.publish(CartChanged(itemCount: try records.values().reduce(0) { $0 + $1.quantity }))
    }
}

/// What the cart refuses.
public enum CartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No product has this id.
    case unknownProduct(Int)
    /// A quantity out of 1...99.
    case badQuantity(Int)

    public var description: String {
        switch self {
        case .unknownProduct(let id): "There is no product number \(id)."
        case .badQuantity(let quantity): "Cannot add \(quantity) units: add between 1 and \(CartStore.maxQuantity)."
        }
    }
}
