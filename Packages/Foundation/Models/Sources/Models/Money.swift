/// An amount of money in minor units (cents), so sums never drift.
public struct Money: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The amount in cents; may be negative.
    public var cents: Int
    /// The ISO 4217 currency code.
    public var currency: String

    /// The currency an amount is in when none is named: the app's own.
    public static let defaultCurrency = "USD"

    /// Creates an amount.
    public init(cents: Int, currency: String = Money.defaultCurrency) {
        self.cents = cents
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: String) -> Money { Money(cents: 0, currency: currency) }

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

extension Money {
    /// Amounts in two currencies met where one total was asked for: no sum adds them without an exchange rate.
    public struct CurrencyMismatch: Error, Sendable, Equatable, CustomStringConvertible {
        /// The currency the sum is in.
        public var expected: String
        /// The other currency found.
        public var found: String

        /// A mismatch of `found` in a sum in `expected`.
        public init(expected: String, found: String) {
            self.expected = expected
            self.found = found
        }

        public var description: String { "cannot add \(found) to a sum in \(expected) without an exchange rate" }
    }
}

extension Sequence where Element == Money {
    /// The sum in `currency` (zero in it when there is nothing to add); throws when an amount is in another currency.
    public func sum(in currency: String) throws(Money.CurrencyMismatch) -> Money {
        var total = Money.zero(currency)
        for amount in self {
            guard amount.currency == currency else { throw Money.CurrencyMismatch(expected: currency, found: amount.currency) }
            total.cents += amount.cents
        }
        return total
    }

    /// One total per currency, in the order each currency first appears: `[]` when empty, one amount for a
    /// list in one currency. What a mixed list (a cart of items priced in two currencies) adds up to.
    public func totals() -> [Money] {
        var totals: [Money] = []
        for amount in self {
            if let index = totals.firstIndex(where: { $0.currency == amount.currency }) {
                totals[index].cents += amount.cents
            } else {
                totals.append(amount)
            }
        }
        return totals
    }

    /// The totals written out, `$12.50` or `$12.50 + €3.00`, or `nothing` for an empty list.
    public var totalsDescription: String {
        let totals = totals()
        return totals.isEmpty ? "nothing" : totals.map(\.description).joined(separator: " + ")
    }
}
