public import Foundation
public import Storage

/// Who is signed in, kept in the database so a session survives a restart of the app.
public final class Session: Sendable {
    private let records: StoredCollection<SessionRecord>
    private let clock: @Sendable () -> Date

    /// A session stored in `storage`; `clock` is injectable for tests.
    public init(storage: Storage, clock: @escaping @Sendable () -> Date = Date.init) {
        self.records = storage.collection("session.current")
        self.clock = clock
    }

    /// The signed-in session, or nil.
    public func current() throws -> SessionRecord? {
        try records.get("current")
    }

    /// Starts a session for `userID`, replacing any other; returns it with a fresh token.
    @discardableResult
    public func signIn(userID: String, displayName: String) throws -> SessionRecord {
        let trimmed = userID.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw SessionError.emptyUserID }
        let record = SessionRecord(userID: trimmed, displayName: displayName, token: UUID(), startedAt: clock())
        try records.put(record, for: "current")
        return record
    }

    /// Ends the session; returns the one that ended, if any.
    @discardableResult
    public func signOut() throws -> SessionRecord? {
        var ended: SessionRecord?
        try records.update("current") { record in
            ended = record
            return nil
        }
        return ended
    }
}

/// A signed-in user's session.
public struct SessionRecord: Codable, Sendable, Hashable {
    /// The user's stable id.
    public var userID: String
    /// The name shown to the user.
    public var displayName: String
    /// An opaque token naming this session.
    public var token: UUID
    /// When the user signed in.
    public var startedAt: Date
}

/// What a session refuses.
public enum SessionError: Error, Sendable, CustomStringConvertible {
    /// Signing in needs a user id.
    case emptyUserID

    public var description: String {
        switch self {
        case .emptyUserID: "Cannot sign in without a user id."
        }
    }
}
