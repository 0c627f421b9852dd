/// An amount of money in minor units (cents), so sums never drift.
public struct Money: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The amount in cents; may be negative.
    public var cents: Int
    /// The ISO 4217 currency code.
    public var currency: String

    /// Creates an amount.
    public init(cents: Int, currency: String = "USD") {
        self.cents = cents
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: String = "USD") -> Money { Money(cents: 0, currency: currency) }

    /// The amount written like `$12.50` (USD), `€3.00` (EUR) or `12.50 CHF`.
    public var description: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        let amount = "\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
        switch currency {
        case "USD": return "\(sign)$\(amount)"
        case "EUR": return "\(sign)€\(amount)"
        default: return "\(sign)\(amount) \(currency)"
        }
    }

    /// This amount times `quantity`.
    public func times(_ quantity: Int) -> Money { Money(cents: cents * quantity, currency: currency) }

    /// The sum; both must be in one currency.
    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "adding \(lhs.currency) to \(rhs.currency)")
        return Money(cents: lhs.cents + rhs.cents, currency: lhs.currency)
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { (lhs.currency, lhs.cents) < (rhs.currency, rhs.cents) }
}

extension Sequence where Element == Money {
    /// The sum of the amounts, or zero in `currency` when empty.
    public func sum(currency: String = "USD") -> Money { reduce(.zero(currency), +) }
}
