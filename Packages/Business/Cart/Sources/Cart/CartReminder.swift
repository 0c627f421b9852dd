import CartInterface
public import Foundation
import HomeInterface
import Models
import Storage

/// What the cart held when the App last went to the background with something in it: saved then, shown
/// on the home screen at the next launch ("Your cart is waiting") while the cart still holds it, and
/// forgotten when the cart changes, empties, or its user signs out.
public struct CartReminder: Codable, Sendable, Equatable {
    /// Units in the cart.
    public var units: Int
    /// What they cost, as the cart shows it.
    public var total: String
    /// When it was saved.
    public var savedAt: Date
}

/// The reminder's one record in the database.
struct CartReminders: Sendable {
    private let records: StoredCollection<CartReminder>
    private static let key = "last"

    init(storage: Storage) {
        records = storage.collection("cart.reminder")
    }

    /// Saves a reminder of `lines`, or forgets it when they are none.
    func save(_ lines: [CartLine]) throws {
        guard !lines.isEmpty else { return try forget() }
        let reminder = CartReminder(units: lines.reduce(0) { $0 + $1.quantity }, total: lines.map(\.total).totalsDescription, savedAt: Date())
        try records.put(reminder, for: Self.key)
    }

    /// The reminder saved, if any.
    func saved() throws -> CartReminder? { try records.get(Self.key) }

    /// Forgets the reminder.
    func forget() throws { _ = try records.remove(Self.key) }

    /// The home screen's promotion for `reminder`.
    static func promotion(_ reminder: CartReminder, url: String) -> HomePromotion {
        HomePromotion(title: "Your cart is waiting: \(reminder.units) item\(reminder.units == 1 ? "" : "s"), \(reminder.total)", url: url)
    }
}
