public import Router
import OrderInterface
import ScreenKit
public import Session
import Storage
import Synchronization
public import UserInterface

/// The User component: provides ``AccountService``, owns the `shop://user/...` routes, and
/// announces sign-in and sign-out. A push of type `session-revoked` (the server ended the session,
/// for the user it names or whoever is signed in) signs out and sends the app's own `user.signed-out`.
public struct UserModule: AppModule {
    public let name = "user"
    public let priority = 5
    public let events: Set<LifecycleEvent.Kind> = [.notification]
    public let announces: Set<LifecycleEvent.Kind> = [Self.signedOut]
    /// The app's own lifecycle event sent when a push signs the user out (`user`: who).
    public static let signedOut: LifecycleEvent.Kind = "user.signed-out"
    private let session: Session?
    private let directory: [UserAccount]
    private let accounts = Registered()

    /// A module keeping who is signed in in `session`, by default a session in the App's `Storage` service.
    public init(session: Session? = nil, directory: [UserAccount] = AccountDirectory.demoAccounts) {
        self.session = session
        self.directory = directory
    }

    public func register(in context: ModuleContext) throws {
        let accounts = AccountDirectory(session: try session ?? Session(storage: context.services.resolve(Storage.self)), known: directory)
        self.accounts.directory = accounts
        let router = context.router
        let events = context.events
        try context.services.register((any AccountService).self, owner: name, instance: accounts)
        try router.addInterceptor(LoginRequiredInterceptor(accounts: accounts))

        try router.register(UserRoute.Profile.self, owner: name) { _, _ in try UserScreens.profile(try accounts.currentUser()) }
        try router.register(UserRoute.Login.self, owner: name) { route, _ in try UserScreens.login(accounts.known, next: route.next) }
        try router.register(UserRoute.LoginAs.self, owner: name) { route, request in
            guard let user = try accounts.signIn(id: route.userID) else {
                return try UserScreens.login(accounts.known, next: route.next, notice: "There is no account '\(route.userID)'.")
            }
            events.publish(UserSignedIn(user: user))
            // Resume where sign-in was asked for; only app routes, so a link cannot send the user to a web page.
            if let next = route.next, let url = try? RouteURL(next), url.scheme == request.url.scheme, router.canOpen(next) {
                return try await router.open(next, arguments: request.arguments, origin: request.origin)
            }
            return try UserScreens.profile(user)
        }
        try router.register(UserRoute.Logout.self, owner: name) { _, _ in
            guard let user = try accounts.signOut() else { return try UserScreens.profile(nil, notice: "Nobody was signed in.") }
            events.publish(UserSignedOut(user: user))
            return try UserScreens.profile(nil, notice: "\(user.displayName) signed out.")
        }
    }
}

extension UserModule {
    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        guard case .notification(let push) = event, push.type == "session-revoked", let accounts = accounts.directory else { return }
        guard let user = try accounts.currentUser(), push["user"].map({ $0 == user.id }) ?? true else { return }
        _ = try accounts.signOut()
        context.events.publish(UserSignedOut(user: user))
        try await context.lifecycle.send(Self.signedOut, ["user": user.id])
    }
}

/// The accounts the module registered, for the events it handles later.
final class Registered: Sendable {
    private let value = Mutex<AccountDirectory?>(nil)
    var directory: AccountDirectory? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// Sends opens of routes labelled `requires-login` to the sign-in screen when nobody is signed in;
/// signing in then resumes the original URL.
struct LoginRequiredInterceptor: RouteInterceptor {
    let name = "login-required"
    let priority = 100
    let scope = InterceptorScope.labeled(UserRouteLabel.requiresLogin)
    let accounts: AccountDirectory

    func intercept(_ request: RouteRequest, _ decision: InterceptorDecision) async {
        guard (try? accounts.currentUser()) == nil else { return decision.proceed() }
        guard let login = try? UserRoute.Login(next: request.url.original).url() else { return decision.reject("sign-in is unavailable") }
        decision.redirect(to: login)
    }
}

enum UserScreens {
    static func profile(_ user: UserAccount?, notice: String? = nil) throws -> Screen {
        var screen = Screen(title: "Account", refreshURL: try UserRoute.Profile().url())
        guard let user else {
            // One line says it: "Alice signed out." or "You are not signed in.", never both.
            screen.text(notice ?? "You are not signed in.")
            screen.link("Sign in", try UserRoute.Login().url())
            return screen
        }
        screen.text("Signed in as \(user.displayName) (\(user.id)).")
        screen.link("My orders", try OrderRoute.List().url())
        screen.link("Sign out", try UserRoute.Logout().url())
        return screen
    }

    static func login(_ accounts: [UserAccount], next: String?, notice: String? = nil) throws -> Screen {
        var screen = Screen(title: "Sign in")
        if let notice { screen.text(notice) }
        screen.text("Choose an account:")
        for account in accounts {
            screen.link(account.displayName, try UserRoute.LoginAs(userID: account.id, next: next).url())
        }
        return screen
    }
}
