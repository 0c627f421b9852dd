public import ReaderInterface
public import Values

/// A ``ReaderService`` with bookmarks fixed up front, for tests and demos of components that ask the reader.
public struct FixedBookmarks: ReaderService {
    /// The page of each bookmarked book.
    public var pages: [BookID: Int]

    /// A service with `pages` bookmarked.
    public init(_ pages: [BookID: Int] = [:]) { self.pages = pages }

    public func bookmark(of id: BookID) async throws -> Int? { pages[id] }
}
