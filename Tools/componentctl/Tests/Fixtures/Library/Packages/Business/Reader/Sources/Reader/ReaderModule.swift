public import Kit
import ReaderInterface
public import Routing
public import Values

/// The Reader component: opens books.
public enum ReaderModule {
    /// Registers the reader's routes.
    public static func register(in registry: inout Registry) throws {
        try registry.register(ReaderRoute.Book.pattern, owner: "reader")
    }

    /// The page that shows book `id`.
    public static func page(for id: BookID) -> Page {
        Page(title: "Reader", lines: ["Reading book \(id.number)."])
    }
}
