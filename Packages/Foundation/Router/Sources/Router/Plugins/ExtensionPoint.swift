/// The name of an extension point, `<interface component>/<point>` as components.yaml writes it
/// (`product-interface/sections`).
public struct ExtensionPointID: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written.
    public let rawValue: String

    /// Creates an id from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates an id from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}

/// A place in a feature that plugins contribute to, declared in the feature's interface package: the
/// protocol its plugins implement (`Plugin`, usually `any <Point>Plugin`) and its id.
public protocol ExtensionPoint: Sendable {
    /// What one plugin of the point is.
    associatedtype Plugin: Sendable
    /// The point's id; componentctl reads it from the source, so write it as a literal.
    static var id: ExtensionPointID { get }
}

/// What a plugin hears from the container that made it. Every hook is optional.
///
/// Plugins are classes so that they can subscribe to the container's bus (subscribers are held weakly:
/// a detached plugin stops listening by going away).
public protocol ContainerPlugin: AnyObject, Sendable {
    /// The container made the plugin; subscribe to its events here.
    func attach(_ context: PluginContext) throws
    /// The container (a page) is about to be shown.
    func containerWillAppear() async
    /// The container is no longer shown.
    func containerDidDisappear() async
    /// The container is going away; the plugin gets no more calls.
    func detach()
}

extension ContainerPlugin {
    /// Does nothing.
    public func attach(_ context: PluginContext) throws {}
    /// Does nothing.
    public func containerWillAppear() async {}
    /// Does nothing.
    public func containerDidDisappear() async {}
    /// Does nothing.
    public func detach() {}
}

/// What a plugin component exports: its id, the point it extends, the settings it takes, what it
/// registers app-wide once, and how to make one plugin for one container. The App's generated wiring
/// lists these types; nothing else names them.
public protocol PluginDefinition: Sendable {
    /// The extension point the plugin extends.
    associatedtype Point: ExtensionPoint
    /// The plugin's id: its component's name in components.yaml.
    static var id: String { get }
    /// The settings the plugin reads, with their types; componentctl reads this literal from the source.
    static var settings: PluginSchema { get }
    /// Registers what the plugin owns app-wide (routes, services, subscriptions), once at launch.
    static func register(in context: ModuleContext) throws
    /// Makes the plugin of one container.
    static func make(_ context: PluginContext) throws -> Point.Plugin
}

extension PluginDefinition {
    /// No settings.
    public static var settings: PluginSchema { [:] }
    /// Registers nothing.
    public static func register(in context: ModuleContext) throws {}
}

/// Everything one plugin of one container gets.
public struct PluginContext: Sendable {
    /// The plugin's id.
    public let plugin: String
    /// The extension point it was made for.
    public let point: ExtensionPointID
    /// Its settings from the declaration, checked against its schema.
    public let settings: PluginSettings
    /// The bus of this container only: events published here reach this container's plugins and host.
    public let events: EventBus
    /// The router, with the app's services and its app-wide event bus.
    public let router: Router

    /// Creates a context (the container does; tests and demos may).
    public init(plugin: String, point: ExtensionPointID, settings: PluginSettings, events: EventBus, router: Router) {
        self.plugin = plugin
        self.point = point
        self.settings = settings
        self.events = events
        self.router = router
    }

    /// The app's services.
    public var services: ServiceRegistry { router.services }
    /// The app-wide bus (not the container's).
    public var appEvents: EventBus { router.events }
}
