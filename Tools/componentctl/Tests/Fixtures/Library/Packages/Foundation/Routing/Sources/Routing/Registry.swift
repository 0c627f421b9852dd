/// A URL pattern such as `lib://book/<int:id>`.
public typealias RoutePattern = String

/// A typed route: a value with the pattern it opens.
public protocol Route: Sendable {
    /// The pattern of every URL of this route.
    static var pattern: RoutePattern { get }
}

/// Which component owns which route pattern.
public struct Registry: Sendable {
    /// The owner of every registered pattern.
    public private(set) var owners: [RoutePattern: String] = [:]

    /// Creates an empty registry.
    public init() {}

    /// Records that `owner` opens `pattern`; throws when another owner has it.
    public mutating func register(_ pattern: RoutePattern, owner: String) throws {
        if let existing = owners[pattern] { throw RegistryError(pattern: pattern, owner: existing) }
        owners[pattern] = owner
    }
}

/// A pattern registered twice.
public struct RegistryError: Error, Equatable {
    /// The pattern.
    public var pattern: RoutePattern
    /// Who registered it first.
    public var owner: String
}
