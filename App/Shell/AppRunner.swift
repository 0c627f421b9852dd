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
    /// The app it runs: its generated definition (tests may change its plugins).
    public var app: AppDefinition

    /// A runner of `app` on the process's standard streams and environment.
    public static func standard(_ app: AppDefinition) -> AppRunner {
        AppRunner(
            app: app, output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            errorOutput: { text in FileHandle.standardError.write(Data(text.utf8)) },
            readLine: { Swift.readLine(strippingNewline: true) },
            environment: ProcessInfo.processInfo.environment)
    }

    /// Creates a runner of `app`; tests pass their own streams.
    public init(
        app: AppDefinition, output: @escaping @Sendable (String) -> Void, errorOutput: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?, environment: [String: String]
    ) {
        self.app = app
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
            let rest = arguments.dropFirst().filter { $0 != "--external" }
            let external = rest.count < arguments.count - 1
            guard rest.count == 1, let url = rest.first, !url.hasPrefix("-") else {
                return usage("'open' takes one URL, like: App open [--external] shop://product/1")
            }
            return await withApp { app in await open(url, in: app, origin: external ? .deepLink : .inApp) }
        case "sign":
            return sign(Array(arguments.dropFirst()))
        case "routes":
            let options = try? CommandOptions(Array(arguments.dropFirst()), valued: ["--format"])
            let format = options?.values["--format"] ?? "text"
            guard let options, options.positional.isEmpty, ["text", "json"].contains(format) else {
                return usage("'routes' takes only --format text|json")
            }
            let json = format == "json"
            return await withApp { app in
                do {
                    output(json ? try Self.routeJSON(app.router.routes) : Self.routeTable(app.router.routes))
                    return 0
                } catch {
                    errorOutput("error: \(error)\n")
                    return 1
                }
            }
        case "plugins":
            return await PluginsCommand(runner: self).run(Array(arguments.dropFirst()))
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

    /// The route table as JSON: pattern, owner, whether public, labels.
    static func routeJSON(_ routes: [RouteDescription]) throws -> String {
        struct Row: Encodable {
            var pattern: String
            var owner: String
            var `public`: Bool
            var labels: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rows = routes.map { Row(pattern: $0.pattern, owner: $0.owner, public: $0.isPublic, labels: $0.labels) }
        return String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n"
    }

    static let help = """
        Usage: App [command]

          (no command)                interactive: the home screen, then commands from standard input
          open [--external] URL       opens one link and prints the screen; --external opens it as a deep
                                      link from outside: only public routes, and only with a valid signature
          sign URL [--lifetime SECS]  prints URL signed for outside use (default lifetime: 3600 s)
          routes [--format text|json] prints the route table: pattern, then owning component
          plugins list                the installed runtime plugins: the version that loads, an update waiting
          plugins available           the plugin feed's plugins and versions, and whether each fits this App
          plugins install ID[@VER]    downloads, verifies and installs a plugin (a version by name may be older)
          plugins update [ID]         installs the newest fitting version of one or every installed plugin
          plugins remove ID           uninstalls a plugin
          help                        shows this text

        Interactive commands: a link's number, a URL, back, home, routes, plugins ..., help, quit.
        Environment: SHOP_DATA_DIR (database folder), SHOP_HOME_LAYOUT (home layout JSON file),
        SHOP_DEGRADE_TABLE (degrade table JSON file), SHOP_LINK_KEY (link signing key), SHOP_LOG=1 (log routing),
        SHOP_PLUGIN_FEED (plugin feed URL), SHOP_PLUGIN_CONFIG (plugin configuration file: feed, trusted keys, timeout),
        SHOP_PLUGIN_TIMEOUT (seconds a download may stall).

        """

    /// What `help` says inside the interactive shell, where the command-line usage does not apply.
    static let interactiveHelp = """
        Type one of:
          a link's number      opens that link of the screen
          a URL                opens it, like shop://product/1 or shop://product/search?q=mug
          back                 the previous screen
          home                 the home screen
          routes               the route table: pattern, then owning component
          plugins ...          the runtime plugins: list, available, install ID[@VERSION], update [ID],
                               remove ID (what is installed now loads at the next start)
          help                 this text
          quit (or exit)       leaves the app (so does the end of the input)

        """

    static let homeRoute = (try? HomeRoute.Home().url()) ?? "shop://home"

    /// Where the app starts and `home` goes.
    var homeURL: String { app.start ?? Self.homeRoute }

    private func sign(_ arguments: [String]) -> Int32 {
        guard let options = try? CommandOptions(arguments, valued: ["--lifetime"]), options.positional.count == 1, let url = options.positional.first else {
            return usage("'sign' takes a URL and optionally --lifetime SECONDS")
        }
        guard let lifetime = options.values["--lifetime"].map(TimeInterval.init) ?? 3600, lifetime > 0 else {
            return usage("--lifetime takes a positive number of seconds")
        }
        do {
            _ = try RouteURL(url)
            output(try AppSettings.signer(environment: environment).sign(url, lifetime: lifetime) + "\n")
            return 0
        } catch {
            errorOutput("error: \(error)\n")
            return 2
        }
    }

    private func open(_ url: String, in app: Bootstrap, origin: RouteOrigin) async -> Int32 {
        do {
            let screen = try await app.router.open(url, as: Screen.self, origin: origin)
            output(TextRenderer(showsURLs: true).render(screen) + "\n")
            return 0
        } catch let error as RouterError {
            if error.code == .invalidURL {
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
            app = try await Bootstrap.boot(environment: environment, app: self.app, log: errorOutput)
        } catch let error as PluginConfigurationError {
            errorOutput("error: the app cannot start: its plugin declaration is wrong:\n\(error)\n")
            return 2
        } catch {
            errorOutput("error: the app cannot start: \(error)\n")
            return 2
        }
        // An interrupt (Ctrl-C) or a termination request ends the run as cleanly as `quit` does.
        let interrupts = InterruptWatch { signal in
            app.runtimePlugins?.finishRun()
            exit(128 + signal)
        }
        let status = await body(app)
        interrupts.stop()
        await app.finish()
        return status
    }

    private func usage(_ message: String) -> Int32 {
        errorOutput("error: \(message). Run 'App help' for the commands.\n")
        return 2
    }
}
