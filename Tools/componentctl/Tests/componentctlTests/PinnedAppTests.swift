import Foundation
import Testing
import TestSupport

/// The user's promise: `componentctl pin user 1.1.0` makes the integrated App behave as user 1.1.0
/// did, while everything else stays live; `unpin` brings the live component back. Builds the App for real.
@Suite(.tags(.buildsPackages), .enabled(if: buildTestsEnabled, "set COMPONENTCTL_BUILD_TESTS=1 to run the tests that build packages"))
struct PinnedAppTests {
    @Test(.timeLimit(.minutes(20)))
    func pinnedReleaseRunsInTheIntegratedApp() throws {
        let scratch = try Scratch.sampleRepository()
        let tool = { (arguments: [String]) in try ToolProcess.run(arguments + ["--root", scratch.root.path]) }
        #expect(try tool(["release", "user", "1.1.0"]).status == 0)
        try scratch.replace(in: "Packages/Business/User/Sources/User/UserModule.swift",
                            "screen.text(\"Signed in as \\(user.displayName) (\\(user.id)).\")", with: "screen.text(\"Hello, \\(user.displayName)!\")")
        try scratch.replace(in: "Packages/Business/Cart/Sources/Cart/CartModule.swift", "var screen = Screen(title: \"Cart\"",
                            with: "var screen = Screen(title: \"Basket\"")
        try scratch.git("commit", "-qam", "live changes to user and cart")

        let data = scratch.root.appendingPathComponent("data").path
        func openInApp(_ url: String) throws -> String {
            try scratch.run("/usr/bin/env", ["swift", "build", "--product", "App"])
            return try scratch.run(scratch.root.appendingPathComponent(".build/debug/App").path, ["open", url], environment: ["SHOP_DATA_DIR": data])
        }

        #expect(try tool(["pin", "user", "1.1.0"]).status == 0)
        let pinned = try openInApp("shop://user/login/alice")
        #expect(pinned.contains("Signed in as Alice Liddell (alice)."))
        #expect(try openInApp("shop://cart").hasPrefix("== Basket =="))  // cart stays live

        #expect(try tool(["unpin", "user"]).status == 0)
        #expect(try openInApp("shop://user/login/bob").contains("Hello, Bob Marley!"))
    }
}
