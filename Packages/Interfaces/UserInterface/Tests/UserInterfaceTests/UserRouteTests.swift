import Testing
import UserInterface

@Suite struct UserRouteTests {
    @Test func routesBuildTheirURLs() throws {
        #expect(try UserRoute.Profile().url() == "shop://user/profile")
        #expect(try UserRoute.Login().url() == "shop://user/login")
        #expect(try UserRoute.Login(next: "shop://order/list").url() == "shop://user/login?next=shop%3A%2F%2Forder%2Flist")
        #expect(try UserRoute.LoginAs(userID: "alice").url() == "shop://user/login/alice")
        #expect(try UserRoute.Logout().url() == "shop://user/logout")
    }

    @Test func loginAsCarriesTheNextURLThrough() throws {
        let route = try UserRoute.LoginAs(parameters: ["userID": "bob", "next": "shop://order/list"])
        #expect(route == UserRoute.LoginAs(userID: "bob", next: "shop://order/list"))
    }
}
