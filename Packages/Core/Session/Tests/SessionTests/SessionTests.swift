import Foundation
import Testing
import Session
import Storage

@Suite struct SessionTests {
    @Test func signInReplacesAndSignOutEnds() throws {
        let storage = try Storage()
        let session = Session(storage: storage, clock: { Date(timeIntervalSince1970: 100) })
        #expect(try session.current() == nil)
        let alice = try session.signIn(userID: " alice ", displayName: "Alice")
        #expect(alice.userID == "alice")
        #expect(alice.startedAt == Date(timeIntervalSince1970: 100))
        let bob = try session.signIn(userID: "bob", displayName: "Bob")
        #expect(bob.token != alice.token)
        #expect(try session.current() == bob)
        #expect(try session.signOut() == bob)
        #expect(try session.signOut() == nil)
        #expect(try session.current() == nil)
    }

    @Test func sessionSurvivesANewInstanceOnTheSameDatabase() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID()).sqlite").path
        try Session(storage: Storage(path: path)).signIn(userID: "alice", displayName: "Alice")
        #expect(try Session(storage: Storage(path: path)).current()?.userID == "alice")
    }

    @Test func emptyUserIDIsRefused() throws {
        #expect(throws: SessionError.self) { try Session(storage: Storage()).signIn(userID: "  ", displayName: "x") }
    }
}
