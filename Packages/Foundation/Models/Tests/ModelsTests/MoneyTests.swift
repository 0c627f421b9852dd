import Testing
import Models

@Suite struct MoneyTests {
    @Test(arguments: [(1250, "USD", "$12.50"), (5, "USD", "$0.05"), (-199, "EUR", "-€1.99"), (300, "CHF", "3.00 CHF")])
    func formats(cents: Int, currency: String, expected: String) {
        #expect(Money(cents: cents, currency: currency).description == expected)
    }

    @Test func sumsAndMultipliesExactly() {
        let prices = [Money(cents: 10), Money(cents: 20)].map { $0.times(3) }
        #expect(prices.sum() == Money(cents: 90))
        #expect([Money]().sum() == .zero())
        #expect(Money(cents: 1) < Money(cents: 2))
    }
}
