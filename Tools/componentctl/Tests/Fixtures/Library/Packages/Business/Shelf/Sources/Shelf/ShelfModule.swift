import Catalog
public import Kit
import ReaderInterface
public import Routing
import ShelfInterface

/// The Shelf component: lists the books.
public enum ShelfModule {
    /// Registers the shelf's routes.
    public static func register(in registry: inout Registry) throws {
        try registry.register(ShelfRoute.List.pattern, owner: "shelf")
    }

    /// The shelf page.
    public static func page() -> Page {
        let catalog = Catalog(titles: ["Emma", "Persuasion"])
        let titles = (1...2).compactMap { catalog.title(of: .init($0)) }
        return Page(title: "Shelf", lines: titles)
    }
}
