/// What a runtime plugin (a plugin component shipped as a shared library and loaded by the App with
/// `dlopen`) hands the App from its entry symbol: the module that registers its routes, services and
/// subscriptions, and the plugin definitions it contributes to extension points.
///
/// The entry is a C symbol, so the App finds it by name:
/// ```swift
/// @_cdecl("campaign_plugin_entry")
/// public func campaignPluginEntry() -> UnsafeMutableRawPointer {
///     RuntimePluginExport(module: CampaignModule(), definitions: [CampaignSection.self]).retainedPointer()
/// }
/// ```
/// The App casts what it gets back to this class; that cast only works when the plugin and the App share
/// one copy of this module (the plugin links `RouterDynamic`, never `Router`).
public final class RuntimePluginExport: Sendable {
    /// Registers the plugin's routes, services and subscriptions; booted like a component's module.
    public let module: (any AppModule)?
    /// The plugin definitions the plugin contributes to extension points.
    public let definitions: [any PluginDefinition.Type]

    /// Creates an export.
    public init(module: (any AppModule)? = nil, definitions: [any PluginDefinition.Type] = []) {
        self.module = module
        self.definitions = definitions
    }

    /// The export as the entry symbol returns it: retained once, for the App to take.
    public func retainedPointer() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// The export an entry symbol returned, or nil when `pointer` is no export of this module (a plugin
    /// that carries its own copy of the router).
    public static func take(_ pointer: UnsafeMutableRawPointer) -> RuntimePluginExport? {
        Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue() as? RuntimePluginExport
    }

    /// The id and extension point of each contributed definition.
    public var contributions: [(plugin: String, point: ExtensionPointID)] {
        definitions.map { ($0.id, $0.pointID) }
    }
}

extension PluginDefinition {
    /// The id of the extension point the plugin extends.
    static var pointID: ExtensionPointID { Point.id }
}
