import Testing
import Models

@Suite struct MoneyTests {
    @Test(arguments: [(1250, "USD", "$12.50"), (5, "USD", "$0.05"), (-199, "EUR", "-€1.99"), (300, "CHF", "3.00 CHF")])
    func formats(cents: Int, currency: String, expected: String) {
        #expect(Money(cents: cents, currency: currency).description == expected)
    }

    @Test func sumsAndMultipliesExactly() throws {
        let prices = [Money(cents: 10), Money(cents: 20)].map { $0.times(3) }
        #expect(try prices.sum(in: "USD") == Money(cents: 90))
        #expect(try [Money]().sum(in: "EUR") == .zero("EUR"))
        #expect(Money(cents: 1) < Money(cents: 2))
    }

    @Test func aSumInOneCurrencyRefusesAnotherInsteadOfTrapping() {
        let mixed = [Money(cents: 100, currency: "USD"), Money(cents: 300, currency: "EUR")]
        #expect(throws: Money.CurrencyMismatch(expected: "USD", found: "EUR")) { try mixed.sum(in: "USD") }
    }

    @Test func totalsKeepEachCurrency() {
        let mixed = [Money(cents: 100, currency: "USD"), Money(cents: 300, currency: "EUR"), Money(cents: 50, currency: "USD")]
        #expect(mixed.totals() == [Money(cents: 150, currency: "USD"), Money(cents: 300, currency: "EUR")])
        #expect(mixed.totalsDescription == "$1.50 + €3.00")
        #expect([Money]().totalsDescription == "nothing")
    }
}
