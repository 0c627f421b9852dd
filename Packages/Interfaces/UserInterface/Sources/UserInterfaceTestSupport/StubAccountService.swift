import Synchronization
public import UserInterface

/// An ``AccountService`` whose signed-in user a test sets, for components that ask who is signed in.
public final class StubAccountService: AccountService {
    private let user: Mutex<UserAccount?>

    /// A service with `user` signed in (nobody by default).
    public init(signedIn user: UserAccount? = nil) {
        self.user = Mutex(user)
    }

    public func currentUser() async throws -> UserAccount? { user.withLock { $0 } }

    /// Makes `account` the signed-in user; nil signs out.
    public func signIn(_ account: UserAccount?) {
        user.withLock { $0 = account }
    }

    /// An account for previews and tests.
    public static let previewUser = UserAccount(id: "alice", displayName: "Alice Liddell")
}
