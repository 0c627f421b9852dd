/// The type of one plugin setting.
public enum PluginSettingType: String, Sendable, Hashable, Codable {
    /// A whole number.
    case int
    /// A number, whole or not.
    case number
    /// Text.
    case string
    /// true or false.
    case bool
}

/// A plugin's settings and their types: `["shown": .int]`.
public typealias PluginSchema = [String: PluginSettingType]

/// One setting's value, as a declaration gives it.
public enum PluginSettingValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case number(Double)
    /// Text.
    case string(String)
    /// true or false.
    case bool(Bool)

    /// Whether the value is of `type` (a whole number is a number too).
    public func matches(_ type: PluginSettingType) -> Bool {
        switch (self, type) {
        case (.int, .int), (.int, .number), (.number, .number), (.string, .string), (.bool, .bool): true
        default: false
        }
    }

    /// The value's own type.
    public var type: PluginSettingType {
        switch self {
        case .int: .int
        case .number: .number
        case .string: .string
        case .bool: .bool
        }
    }

    public var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "'\(value)'"
        case .bool(let value): "\(value)"
        }
    }
}

/// A plugin's settings, read with a default for what the declaration leaves out.
public struct PluginSettings: Sendable, Hashable {
    /// The declared values, checked against the plugin's schema.
    public let values: [String: PluginSettingValue]

    /// Settings of `values`.
    public init(_ values: [String: PluginSettingValue] = [:]) { self.values = values }

    /// The whole number `key`, or `fallback`.
    public func int(_ key: String, default fallback: Int) -> Int {
        if case .int(let value)? = values[key] { value } else { fallback }
    }

    /// The number `key` (whole or not), or `fallback`.
    public func number(_ key: String, default fallback: Double) -> Double {
        switch values[key] {
        case .int(let value)?: Double(value)
        case .number(let value)?: value
        default: fallback
        }
    }

    /// The text `key`, or `fallback`.
    public func string(_ key: String, default fallback: String) -> String {
        if case .string(let value)? = values[key] { value } else { fallback }
    }

    /// The flag `key`, or `fallback`.
    public func bool(_ key: String, default fallback: Bool) -> Bool {
        if case .bool(let value)? = values[key] { value } else { fallback }
    }
}
