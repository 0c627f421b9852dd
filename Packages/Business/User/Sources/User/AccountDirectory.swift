public import Session
public import UserInterface

/// The accounts that can sign in, and who is signed in now (kept in the ``Session``).
public struct AccountDirectory: AccountService {
    /// The accounts that exist.
    public let known: [UserAccount]
    private let session: Session

    /// A directory of `known` accounts over `session`.
    public init(session: Session, known: [UserAccount]) {
        self.session = session
        self.known = known
    }

    public func currentUser() throws -> UserAccount? {
        try session.current().map { UserAccount(id: $0.userID, displayName: $0.displayName) }
    }

    /// Signs in as the account `id`; nil when no such account exists.
    public func signIn(id: String) throws -> UserAccount? {
        guard let account = known.first(where: { $0.id == id }) else { return nil }
        try session.signIn(userID: account.id, displayName: account.displayName)
        return account
    }

    /// Signs out; returns who was signed in.
    public func signOut() throws -> UserAccount? {
        try session.signOut().map { UserAccount(id: $0.userID, displayName: $0.displayName) }
    }

    /// The demo accounts the sample app ships with (a real app asks an identity service).
    public static let demoAccounts = [
        UserAccount(id: "alice", displayName: "Alice Liddell"),
        UserAccount(id: "bob", displayName: "Bob Marley"),
    ]
}
