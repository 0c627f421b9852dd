public import Router

/// A user as other components see them.
public struct UserAccount: Sendable, Hashable, Codable {
    /// The stable id, such as `alice`.
    public var id: String
    /// The name shown on screens.
    public var displayName: String

    /// Creates an account.
    public init(id: String, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}

/// Who is signed in, provided by the User component.
public protocol AccountService: Sendable {
    /// The signed-in user, or nil.
    func currentUser() async throws -> UserAccount?
}

/// Published by User after a user signs in.
public struct UserSignedIn: AppEvent {
    /// Who signed in.
    public var user: UserAccount
    /// Creates the event.
    public init(user: UserAccount) { self.user = user }
}

/// Published by User after a user signs out.
public struct UserSignedOut: AppEvent {
    /// Who signed out.
    public var user: UserAccount
    /// Creates the event.
    public init(user: UserAccount) { self.user = user }
}

/// Route labels the User component acts on.
public enum UserRouteLabel {
    /// Routes with this label need a signed-in user: User's interceptor sends everyone else to sign in, then resumes.
    public static let requiresLogin = "requires-login"
}

/// The routes the User component owns.
public enum UserRoute {
    /// The signed-in user's profile, or an invitation to sign in.
    public struct Profile: Route, Equatable {
        public static let pattern: RoutePattern = "shop://user/profile"
        /// Creates the route.
        public init() {}
    }

    /// The sign-in screen: the demo accounts to choose from. `next` is a URL to continue to afterwards.
    public struct Login: Route, Equatable {
        public static let pattern: RoutePattern = "shop://user/login"
        /// Where to go after signing in.
        public var next: String?
        /// Creates the route.
        public init(next: String? = nil) { self.next = next }
    }

    /// Signs in as `userID`, then continues to `next` or the profile.
    public struct LoginAs: Route, Equatable {
        public static let pattern: RoutePattern = "shop://user/login/:userID"
        /// The account to sign in as.
        public var userID: String
        /// Where to go after signing in.
        public var next: String?
        /// Creates the route.
        public init(userID: String, next: String? = nil) {
            self.userID = userID
            self.next = next
        }
    }

    /// Signs out, then shows the profile.
    public struct Logout: Route, Equatable {
        public static let pattern: RoutePattern = "shop://user/logout"
        /// Creates the route.
        public init() {}
    }
}
