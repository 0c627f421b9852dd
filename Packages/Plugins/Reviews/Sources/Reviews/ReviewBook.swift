import Foundation
public import Storage

/// One review of a product.
public struct Review: Sendable, Hashable, Codable {
    /// Its number.
    public var id: Int
    /// The product reviewed.
    public var productID: Int
    /// 1 to 5 stars.
    public var rating: Int
    /// What the reviewer says.
    public var text: String
    /// Who wrote it.
    public var author: String?
}

/// Reviews kept in the app's database.
public struct ReviewBook: Sendable {
    /// The longest review text taken.
    public static let maximumLength = 500
    private let reviews: StoredCollection<Review>

    /// Reviews stored in `storage`.
    public init(storage: Storage) {
        reviews = storage.collection("reviews.reviews")
    }

    /// Stores a review; throws ``ReviewError`` for a rating outside 1...5 or an over-long text.
    @discardableResult
    public func add(productID: Int, rating: Int, text: String, author: String?) throws -> Review {
        guard (1...5).contains(rating) else { throw ReviewError(reason: "a rating is 1 to 5 stars, not \(rating)") }
        let text = Self.plain(text)
        guard text.count <= Self.maximumLength else { throw ReviewError(reason: "a review has at most \(Self.maximumLength) characters") }
        let author = author.map(Self.plain).map { String($0.prefix(60)) }
        return try reviews.append { id in
            Review(id: id, productID: productID, rating: rating, text: text.isEmpty ? "(no text)" : text, author: author?.isEmpty == false ? author : nil)
        }.value
    }

    /// `text` as one line of plain text: control characters (newlines, escapes, NUL) and bidirectional
    /// overrides become spaces, so a review can never draw a fake link, heading or colour on a screen.
    static func plain(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            let isControl = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
            return isControl ? " " : scalar
        }
        var result = String(String.UnicodeScalarView(scalars))
        while result.contains("  ") { result = result.replacingOccurrences(of: "  ", with: " ") }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The reviews of `productID`, newest first.
    public func reviews(of productID: Int) throws -> [Review] {
        try reviews.values().filter { $0.productID == productID }.sorted { $0.id > $1.id }
    }
}

/// A review that cannot be stored.
public struct ReviewError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public var reason: String
    public var description: String { "The review was not saved: \(reason)." }
}
