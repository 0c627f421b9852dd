/// A book's catalog number.
public struct BookID: Hashable, Sendable {
    /// The number.
    public var number: Int

    /// Creates an id.
    public init(_ number: Int) { self.number = number }
}
