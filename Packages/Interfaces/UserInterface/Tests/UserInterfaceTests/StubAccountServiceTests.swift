import Testing
import UserInterface
import UserInterfaceTestSupport

@Suite struct StubAccountServiceTests {
    @Test func saysWhoTheTestSignedIn() async throws {
        let accounts = StubAccountService()
        #expect(try await accounts.currentUser() == nil)
        accounts.signIn(StubAccountService.previewUser)
        #expect(try await accounts.currentUser()?.id == "alice")
        accounts.signIn(nil)
        #expect(try await accounts.currentUser() == nil)
    }
}
