/// One entry of components.yaml's `plugins:`: a plugin an extension point gets, in the entry's position.
public struct PluginEntry: Sendable, Hashable {
    /// One setting of the entry.
    public struct Setting: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its value.
        public var value: SettingValue
        /// Where the value is written.
        public var location: SourceLocation
    }

    /// The extension point, `<interface component>/<point>`.
    public var point: String
    /// The plugin component's name.
    public var plugin: String
    /// false leaves the plugin out of the App without removing the entry.
    public var isEnabled: Bool
    /// The settings, in file order.
    public var settings: [Setting]
    /// Where the entry's `plugin:` value is written.
    public var location: SourceLocation
    /// Where the entry (the list item) starts.
    public var entryStart: SourceLocation
}

extension PluginEntry.Setting {
    /// What is wrong with the setting under the plugin's `schema`, or nil: a setting the plugin does not
    /// take, or a value of another type (a type componentctl does not know is the definition's finding).
    func problem(of plugin: String, in schema: [String: String]) -> String? {
        guard let type = schema[name] else { return "plugin '\(plugin)' has no setting '\(name)'" }
        guard PluginChecks.settingTypes.contains(type), !value.fits(type) else { return nil }
        return "setting '\(name)' of plugin '\(plugin)' must be \(type), not \(value.typeName)"
    }
}

/// A setting's value, typed as YAML writes it: a plain `3` is an int, `2.5` a number, `true` a bool,
/// anything quoted or else a string.
public enum SettingValue: Sendable, Hashable {
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case number(Double)
    /// Text.
    case string(String)
    /// true or false.
    case bool(Bool)

    /// The value of `scalar`.
    init(_ scalar: YAMLScalar) {
        guard scalar.style == .plain else {
            self = .string(scalar.value)
            return
        }
        switch scalar.value {
        case "true": self = .bool(true)
        case "false": self = .bool(false)
        default:
            if let int = Int(scalar.value) {
                self = .int(int)
            } else if scalar.value.allSatisfy({ "0123456789+-.eE".contains($0) }), let number = Double(scalar.value), number.isFinite {
                self = .number(number)
            } else {
                self = .string(scalar.value)
            }
        }
    }

    /// The name of the value's type, as a plugin's schema writes it.
    public var typeName: String {
        switch self {
        case .int: "int"
        case .number: "number"
        case .string: "string"
        case .bool: "bool"
        }
    }

    /// Whether the value fits the schema type `type` (a whole number is a number too).
    public func fits(_ type: String) -> Bool {
        typeName == type || (type == "number" && typeName == "int")
    }

    /// The value as a Swift `PluginSettingValue` expression, for the generated wiring.
    public var swiftLiteral: String {
        switch self {
        case .int(let value): ".int(\(value))"
        case .number(let value): ".number(\(value))"
        case .bool(let value): ".bool(\(value))"
        case .string(let value): ".string(\(swiftString(value)))"
        }
    }
}
