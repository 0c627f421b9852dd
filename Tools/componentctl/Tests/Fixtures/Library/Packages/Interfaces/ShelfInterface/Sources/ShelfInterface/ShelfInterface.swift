public import Routing

/// The routes the Shelf component owns.
public enum ShelfRoute {
    /// Every book on the shelf.
    public struct List: Route {
        public static let pattern: RoutePattern = "lib://shelf/list"
        /// Creates the route.
        public init() {}
    }
}
