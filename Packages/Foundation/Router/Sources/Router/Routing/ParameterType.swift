import Foundation

/// A named kind of path parameter (`<int:id>`) that accepts or refuses a decoded segment.
///
/// Typed parameters beat plain ones; among typed parameters the lower `precedence` is tried
/// first, then the name decides, so matching never depends on registration order.
public struct ParameterType: Sendable, Hashable, Comparable {
    /// The name used in patterns, as in `<int:id>`.
    public let name: String
    /// Lower is tried first when several typed parameters could match one segment.
    public let precedence: Int
    private let accepts: @Sendable (String) -> Bool

    /// Creates a custom parameter type; register it with ``Router/register(parameterType:)``.
    public init(name: String, precedence: Int = 100, accepts: @escaping @Sendable (String) -> Bool) {
        self.name = name
        self.precedence = precedence
        self.accepts = accepts
    }

    /// Whether the decoded segment `value` is of this type.
    public func matches(_ value: String) -> Bool { accepts(value) }

    /// A decimal integer that fits in `Int`, optionally negative.
    public static let int = ParameterType(name: "int", precedence: 10) { Int($0) != nil }
    /// A UUID in its canonical 8-4-4-4-12 hexadecimal form.
    public static let uuid = ParameterType(name: "uuid", precedence: 20) { UUID(uuidString: $0) != nil }

    /// The types every router knows.
    public static let builtIn: [ParameterType] = [.int, .uuid]

    public static func == (lhs: ParameterType, rhs: ParameterType) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public static func < (lhs: ParameterType, rhs: ParameterType) -> Bool {
        (lhs.precedence, lhs.name) < (rhs.precedence, rhs.name)
    }
}
