import Cache
public import Values

/// The books of the library.
public struct Catalog: Sendable {
    private var cache = TitleCache()

    /// Creates a catalog of `titles`, numbered from 1.
    public init(titles: [String]) {
        for (index, title) in titles.enumerated() { cache[BookID(index + 1)] = title }
    }

    /// The title of `id`, if the library has it.
    public func title(of id: BookID) -> String? { cache[id] }
}
