/// Renders a screen as plain text for a terminal, numbering each link from 1.
public struct TextRenderer: Sendable {
    /// Whether each link's URL is printed after its title.
    public var showsURLs: Bool

    /// Creates a renderer.
    public init(showsURLs: Bool = false) {
        self.showsURLs = showsURLs
    }

    /// The screen as lines of text.
    public func render(_ screen: Screen) -> String {
        var lines = ["== \(screen.title) =="]
        var number = 0
        for element in screen.elements {
            switch element {
            case .heading(let text):
                lines.append("")
                lines.append("## \(text)")
            case .text(let text):
                lines.append(text)
            case .link(let link):
                number += 1
                lines.append("[\(number)] \(link.title)" + (showsURLs ? "  <\(link.url)>" : ""))
            case .divider:
                lines.append("----")
            }
        }
        return lines.joined(separator: "\n")
    }
}
