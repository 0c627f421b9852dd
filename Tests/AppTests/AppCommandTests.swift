import Foundation
import Testing

@Suite(.serialized) struct AppCommandTests {
    let app = AppProcess()

    @Test func everyParameterFreeRouteOpens() throws {
        let patterns = try app.run(["routes"]).output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        let parameterFree = patterns.filter { pattern in
            !(pattern.components(separatedBy: "://").last ?? "").contains(where: { ":<*".contains($0) })
        }
        #expect(!parameterFree.isEmpty)
        for pattern in parameterFree {
            let result = try app.run(["open", pattern])
            #expect(result.status == 0, "\(pattern): \(result.error)")
            #expect(result.output.hasPrefix("== "), "\(pattern)")
        }
    }

    @Test func unparseableURLIsExitTwoWithAMessage() throws {
        let result = try app.run(["open", "not a url"])
        #expect(result.status == 2)
        #expect(result.error.contains("Invalid URL 'not a url'"))
        #expect(result.output.isEmpty)
    }

    @Test func unmatchedURLShowsTheFallbackAndWebURLsTheWebContainer() throws {
        let scheme = try AppProcess.described.get().scheme
        let missing = try app.run(["open", "\(scheme)://nowhere/7"])
        #expect(missing.status == 0)
        #expect(missing.output.hasPrefix("== Page not found =="))
        let web = try app.run(["open", "https://example.com/help"])
        #expect(web.status == 0)
        #expect(web.output.contains("The web container shows https://example.com/help"))
    }

    @Test func usageErrorsAreExitTwo() throws {
        let product = AppProcess.productUnderTest
        #expect(try app.run(["frobnicate"]).status == 2)
        let open = try app.run(["open"])
        #expect(open.status == 2)
        #expect(open.error.contains("Missing expected argument '<url>'") && open.error.contains("Usage: \(product) open [--external] <url>"), "\(open.error)")
        #expect(try app.run(["routes", "extra"]).status == 2)
        #expect(try app.run(["event", "some.event", "items"]).error.contains("'items' is no KEY=VALUE pair"))
        let help = try app.run(["help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: \(product) [--profile-startup] [<subcommand>]"), "\(help.output)")
        #expect(help.output.contains(AppProcess.setting("DATA_DIR")), "the settings, under the app's prefix")
        let openHelp = try app.run(["open", "--help"])
        #expect(openHelp.status == 0 && openHelp.output.contains("USAGE: \(product) open [--external] <url>"))
        #expect(try app.run(["help", "open"]).output == openHelp.output)
        let unknown = try app.run(["help", "frobnicate"])
        #expect(unknown.status == 2 && unknown.error.contains("'frobnicate' is no command of \(product)"), "\(unknown.error)")
        #expect(try app.run(["sign", "--lifetime", "0.5", "x://y"]).status == 2, "a link lives a second at least")
    }
}
