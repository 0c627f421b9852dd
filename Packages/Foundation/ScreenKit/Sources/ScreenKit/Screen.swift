/// A UI-agnostic screen that a component returns through the router; a shell decides how to show it.
public struct Screen: Sendable, Hashable, Codable {
    /// The title shown above the screen.
    public var title: String
    /// The content, top to bottom.
    public var elements: [Element]
    /// The URL that shows this screen again as it is now, without repeating what opened it (an add to the
    /// cart shows the cart, whose URL is `myapp://cart`); nil when the screen cannot be shown again. A shell
    /// opens it when the user goes back, so a screen never shows stale state.
    public var refreshURL: String?

    /// One piece of a screen.
    public enum Element: Sendable, Hashable, Codable {
        /// A section heading.
        case heading(String)
        /// A paragraph or line of text.
        case text(String)
        /// A link the user can follow: a title and the router URL it opens.
        case link(Link)
        /// A visual break between sections.
        case divider
    }

    /// Creates a screen; `refreshURL` shows it again (see ``refreshURL``).
    public init(title: String, elements: [Element] = [], refreshURL: String? = nil) {
        self.title = title
        self.elements = elements
        self.refreshURL = refreshURL
    }

    /// The links on the screen, in the order they appear: the order a shell numbers them in.
    public var links: [Link] {
        elements.compactMap { element in
            if case .link(let link) = element { link } else { nil }
        }
    }

    /// Appends a heading.
    public mutating func heading(_ text: String) { elements.append(.heading(text)) }
    /// Appends a line of text.
    public mutating func text(_ text: String) { elements.append(.text(text)) }
    /// Appends a link to `url`.
    public mutating func link(_ title: String, _ url: String) { elements.append(.link(Link(title: title, url: url))) }
    /// Appends a divider.
    public mutating func divider() { elements.append(.divider) }
}

/// A titled router URL on a screen.
public struct Link: Sendable, Hashable, Codable {
    /// What the user sees.
    public var title: String
    /// The router URL it opens.
    public var url: String

    /// Creates a link.
    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}
