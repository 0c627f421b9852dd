public import Router

/// The settings the Home component reads from its module context.
public enum HomeSettings {
    /// The home layout as JSON text: what an app declares as its own layout (components.yaml's `setting-files:`).
    public static let layoutJSON = "home.layout-json"
    /// The name of the layout among the documents the App serves from URLs (``RemoteDocuments``).
    public static let remoteLayout = "home-layout"
}

/// The routes the Home component owns.
public enum HomeRoute {
    /// The home screen, built from the layout config.
    public struct Home: Route, Equatable {
        public static let pattern: RoutePattern = "shop://home"
        /// Creates the route.
        public init() {}
    }
}
