import Values

/// Titles already looked up.
public struct TitleCache: Sendable {
    private var titles: [BookID: String] = [:]

    /// Creates an empty cache.
    public init() {}

    /// The cached title of `id`.
    public subscript(id: BookID) -> String? {
        get { titles[id] }
        set { titles[id] = newValue }
    }
}
