public import CartInterface
public import Models
import Synchronization

/// A ``CartService`` kept in memory, for the tests and demos of components that read or fill the cart.
public final class InMemoryCartService: CartService {
    /// What a product is, for a line added by id.
    public typealias ProductLookup = @Sendable (_ productID: Int) -> (name: String, unitPrice: Money)?

    private let content: Mutex<[CartLine]>
    private let lookUp: ProductLookup

    /// A cart holding `lines`; `add` names and prices a new line with `lookUp` (by default "Product <id>" at $1.00).
    public init(lines: [CartLine] = [], lookUp: @escaping ProductLookup = { ("Product \($0)", Money(cents: 100)) }) {
        content = Mutex(lines)
        self.lookUp = lookUp
    }

    public func lines() async throws -> [CartLine] { content.withLock { $0 } }

    @discardableResult
    public func add(productID: Int, quantity: Int) async throws -> CartLine {
        guard quantity > 0 else { throw InMemoryCartError.notAQuantity(quantity) }
        guard let product = lookUp(productID) else { throw InMemoryCartError.unknownProduct(productID) }
        return content.withLock { lines in
            if let index = lines.firstIndex(where: { $0.productID == productID }) {
                lines[index].quantity += quantity
                return lines[index]
            }
            lines.append(CartLine(productID: productID, name: product.name, unitPrice: product.unitPrice, quantity: quantity))
            return lines[lines.count - 1]
        }
    }

    @discardableResult
    public func remove(productID: Int) async throws -> Bool {
        content.withLock { lines in
            let before = lines.count
            lines.removeAll { $0.productID == productID }
            return lines.count != before
        }
    }

    public func clear() async throws { content.withLock { $0 = [] } }
}

/// What ``InMemoryCartService`` refuses.
public enum InMemoryCartError: Error, Equatable {
    /// The lookup does not know the product.
    case unknownProduct(Int)
    /// A quantity below 1.
    case notAQuantity(Int)
}
