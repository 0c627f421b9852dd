/// One entry of the plugin declaration (components.yaml's `plugins:`): which plugin an extension point
/// gets, whether it is enabled, with which settings, and where the entry is written.
public struct PluginDeclaration: Sendable, Hashable {
    /// The extension point.
    public var point: ExtensionPointID
    /// The plugin's id.
    public var plugin: String
    /// false leaves the plugin out without removing its entry.
    public var isEnabled: Bool
    /// The settings the entry gives.
    public var settings: [String: PluginSettingValue]
    /// Where the entry is written (`components.yaml:97:9`), for error messages.
    public var source: String

    /// Creates a declaration.
    public init(point: ExtensionPointID, plugin: String, isEnabled: Bool = true, settings: [String: PluginSettingValue] = [:], source: String) {
        self.point = point
        self.plugin = plugin
        self.isEnabled = isEnabled
        self.settings = settings
        self.source = source
    }
}

/// What is wrong with the plugin declaration or the plugins linked: every problem, each with its source.
public struct PluginConfigurationError: Error, Sendable, CustomStringConvertible {
    /// One problem.
    public struct Problem: Sendable, Hashable {
        /// Where (`components.yaml:97:9`, or the plugin's id when it is no declaration's fault).
        public var source: String
        /// What is wrong.
        public var message: String
        /// How to fix it.
        public var fix: String
    }

    /// Every problem found, in declaration order.
    public var problems: [Problem]

    public var description: String {
        problems.map { "\($0.source): error: \($0.message). Fix: \($0.fix)" }.joined(separator: "\n")
    }
}

/// A plugin left out of a container, and why.
public struct PluginFailure: Sendable, Hashable, CustomStringConvertible {
    /// The plugin's id.
    public var plugin: String
    /// The extension point.
    public var point: ExtensionPointID
    /// What it was doing: making, attaching or contributing.
    public var stage: String
    /// The error it threw.
    public var reason: String

    public var description: String { "plugin '\(plugin)' of \(point) failed while \(stage) and is left out: \(reason)" }
}
