public import Foundation

/// The home screen's layout: a config the app bundles and a deployment may replace at run time.
///
/// A section of an unknown kind (one a newer App adds) or a broken one is skipped, with its reason in
/// ``skipped``, so one bad section never takes the home screen down; unknown fields are ignored.
public struct HomeLayout: Sendable, Equatable, Decodable {
    /// The screen's title.
    public var title: String
    /// The sections, top to bottom.
    public var sections: [Section]
    /// The sections left out, each as `sections[INDEX]: why`.
    public var skipped: [String] = []
    /// Raised by each new version of a layout served from a URL: the App never takes an older one.
    public var sequence: Int?

    /// A layout of `sections` under `title`.
    public init(title: String, sections: [Section], sequence: Int? = nil) {
        self.title = title
        self.sections = sections
        self.sequence = sequence
    }

    private enum Key: String, CodingKey { case title, sections, sequence }

    /// Something decoded only to step over it.
    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        title = try container.decode(String.self, forKey: .title)
        sequence = try container.decodeIfPresent(Int.self, forKey: .sequence)
        sections = []
        var list = try container.nestedUnkeyedContainer(forKey: .sections)
        while !list.isAtEnd {
            let index = list.currentIndex
            do {
                sections.append(try list.decode(Section.self))
            } catch let error as DecodingError {
                skipped.append("sections[\(index)]: \(error.sectionReason)")
                _ = try list.decode(Skip.self)
            }
        }
    }

    /// One block of the home screen.
    public enum Section: Sendable, Equatable, Decodable {
        /// "Welcome back, Alice" or an invitation to sign in.
        case greeting
        /// A line of promotional text.
        case banner(text: String)
        /// Links to the products with these ids, under a heading.
        case featured(title: String, products: [Int])
        /// What the cart holds, with a link to it.
        case cart
        /// Links given by title and URL, under a heading.
        case links(title: String, links: [LayoutLink])

        private enum Key: String, CodingKey { case kind, text, title, products, links }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let kind = try container.decode(String.self, forKey: .kind)
            switch kind {
            case "greeting": self = .greeting
            case "cart": self = .cart
            case "banner": self = .banner(text: try container.decode(String.self, forKey: .text))
            case "featured":
                self = .featured(title: try container.decode(String.self, forKey: .title), products: try container.decode([Int].self, forKey: .products))
            case "links":
                self = .links(title: try container.decode(String.self, forKey: .title), links: try container.decode([LayoutLink].self, forKey: .links))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container,
                    debugDescription: "unknown section kind '\(kind)'; use greeting, banner, featured, cart or links")
            }
        }
    }

    /// A link written in the layout.
    public struct LayoutLink: Sendable, Equatable, Decodable {
        /// What the user sees.
        public var title: String
        /// The URL it opens.
        public var url: String
    }

    /// Decodes a layout from JSON; the error names the place in the file that is wrong.
    public static func decode(_ data: Data, source: String) throws -> HomeLayout {
        do {
            return try JSONDecoder().decode(HomeLayout.self, from: data)
        } catch let error as DecodingError {
            throw HomeError.badLayout(source: source, reason: error.layoutReason)
        } catch {
            throw HomeError.badLayout(source: source, reason: "\(error)")
        }
    }

    /// The layout bundled with the Home component.
    public static func bundled() throws -> HomeLayout {
        guard let url = Bundle.module.url(forResource: "home-layout", withExtension: "json") else {
            throw HomeError.badLayout(source: "bundled home-layout.json", reason: "the resource is missing from the build")
        }
        return try decode(try Data(contentsOf: url), source: url.path)
    }

    /// The layout in the file at `path`.
    public static func load(path: String) throws -> HomeLayout {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HomeError.badLayout(source: path, reason: "the file cannot be read")
        }
        return try decode(data, source: path)
    }
}

/// What Home refuses.
public enum HomeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A layout config that cannot be used.
    case badLayout(source: String, reason: String)

    public var description: String {
        switch self {
        case .badLayout(let source, let reason):
            "Home layout '\(source)' is not usable: \(reason). Fix the file, or unset \(HomeModule.layoutSetting) to use the bundled layout."
        }
    }
}

extension DecodingError {
    /// What is wrong with one section, without the path to it.
    var sectionReason: String {
        switch self {
        case .keyNotFound(let key, _): return "its '\(key.stringValue)' is missing"
        case .typeMismatch(let type, let context): return "\(context.codingPath.last.map { "'\($0.stringValue)'" } ?? "it") should be \(type)"
        case .valueNotFound(let type, let context): return "\(context.codingPath.last.map { "'\($0.stringValue)'" } ?? "it") should be \(type), not null"
        case .dataCorrupted(let context): return context.debugDescription
        @unknown default: return "\(self)"
        }
    }

    var layoutReason: String {
        let path: (DecodingError.Context) -> String = { context in
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch self {
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue) is missing"
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) should be \(type), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }
}
