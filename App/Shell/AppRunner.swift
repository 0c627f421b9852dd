import Foundation
import HomeInterface
import Router
import ScreenKit

/// Runs the App's commands: `open URL`, `routes`, `help`, or the interactive shell with none.
///
/// Exit codes: 0 ok; 1 a screen failed to open at run time; 2 usage error, a URL that cannot be
/// parsed, or a configuration the app cannot boot with.
public struct AppRunner: Sendable {
    /// Where regular output goes.
    public var output: @Sendable (String) -> Void
    /// Where error messages go.
    public var errorOutput: @Sendable (String) -> Void
    /// The next line of input, or nil at the end.
    public var readLine: @Sendable () -> String?
    /// The environment (database location, layout override).
    public var environment: [String: String]

    /// A runner on the process's standard streams and environment.
    public static func standard() -> AppRunner {
        AppRunner(
            output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            errorOutput: { text in FileHandle.standardError.write(Data(text.utf8)) },
            readLine: { Swift.readLine(strippingNewline: true) },
            environment: ProcessInfo.processInfo.environment)
    }

    /// Creates a runner; tests pass their own streams.
    public init(
        output: @escaping @Sendable (String) -> Void, errorOutput: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?, environment: [String: String]
    ) {
        self.output = output
        self.errorOutput = errorOutput
        self.readLine = readLine
        self.environment = environment
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case nil:
            return await withApp { app in
                var shell = InteractiveShell(app: app, runner: self)
                return await shell.run()
            }
        case "open":
            guard arguments.count == 2 else { return usage("'open' takes one URL, like: App open shop://product/1") }
            return await withApp { app in await open(arguments[1], in: app) }
        case "routes":
            guard arguments.count == 1 else { return usage("'routes' takes no arguments") }
            return await withApp { app in
                output(Self.routeTable(app.router.routes))
                return 0
            }
        case "help", "--help", "-h":
            output(Self.help)
            return 0
        case let command?:
            return usage("Unknown command '\(command)'")
        }
    }

    /// The route table: one route per line, the pattern, then the owning component.
    static func routeTable(_ routes: [RouteDescription]) -> String {
        let width = routes.map(\.pattern.count).max() ?? 0
        return routes.map { $0.pattern.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.owner }.joined(separator: "\n") + "\n"
    }

    static let help = """
        Usage: App [command]

          (no command)   interactive: shows the home screen and reads commands from standard input
          open URL       opens one deep link and prints the screen
          routes         prints the route table: pattern, then owning component
          help           shows this text

        Interactive commands: a link's number, a URL, back, home, routes, help, quit.
        Environment: SHOP_DATA_DIR (database folder), SHOP_HOME_LAYOUT (home layout JSON file).

        """

    static let homeURL = (try? HomeRoute.Home().url()) ?? "shop://home"

    private func open(_ url: String, in app: Bootstrap) async -> Int32 {
        do {
            let screen = try await app.router.open(url, as: Screen.self, origin: .deepLink)
            output(TextRenderer(showsURLs: true).render(screen) + "\n")
            return 0
        } catch let error as RouterError {
            if case .invalidURL = error {
                errorOutput("error: \(error)\n")
                return 2
            }
            errorOutput("error: \(error)\n")
            return 1
        } catch {
            errorOutput("error: opening '\(url)' failed: \(error)\n")
            return 1
        }
    }

    private func withApp(_ body: (Bootstrap) async -> Int32) async -> Int32 {
        let app: Bootstrap
        do {
            app = try await Bootstrap.boot(environment: environment)
        } catch {
            errorOutput("error: the app cannot start: \(error)\n")
            return 2
        }
        let status = await body(app)
        await app.modules.send(.terminate)
        return status
    }

    private func usage(_ message: String) -> Int32 {
        errorOutput("error: \(message). Run 'App help' for the commands.\n")
        return 2
    }
}
