/// A screen of text.
public struct Page: Sendable, Equatable {
    /// The heading.
    public var title: String
    /// The body, line by line.
    public var lines: [String]

    /// Creates a page.
    public init(title: String, lines: [String] = []) {
        self.title = title
        self.lines = lines
    }

    /// The page as plain text.
    public var text: String { (["== \(title) =="] + lines).joined(separator: "\n") }
}
