import Testing
import HomeInterface

@Suite struct HomeRouteTests {
    @Test func homeRouteBuildsItsURL() throws {
        #expect(try HomeRoute.Home().url() == "shop://home")
        #expect(try HomeRoute.Home(parameters: [:]) == HomeRoute.Home())
    }
}
