public import Routing
public import Values

/// The routes the Reader component owns.
public enum ReaderRoute {
    /// One book, open for reading.
    public struct Book: Route {
        public static let pattern: RoutePattern = "lib://book/<int:id>"
        /// The book.
        public var id: BookID
        /// Creates the route.
        public init(id: BookID) { self.id = id }
    }
}

/// What other components may ask the reader.
public protocol ReaderService: Sendable {
    /// The page where `id` was left off, or nil.
    func bookmark(of id: BookID) async throws -> Int?
}
