public import Router

/// The routes the Home component owns.
public enum HomeRoute {
    /// The home screen, built from the layout config.
    public struct Home: Route, Equatable {
        public static let pattern: RoutePattern = "shop://home"
        /// Creates the route.
        public init() {}
    }
}
