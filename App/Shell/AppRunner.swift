import Foundation
import Logging
import Router
import ScreenKit

/// Runs the App's commands: `open URL`, `notify PAYLOAD`, `event NAME`, `status`, `routes`, `help`, or the
/// interactive shell with none; `--profile-startup` (or `<PREFIX>_PROFILE=1`) prints what the start cost.
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
    /// When the App's code started, for the startup profile.
    let started = ContinuousClock().now

    /// A runner of `app` on the process's standard streams and environment; components' swift-log
    /// loggers write where the App's own do.
    public static func standard(_ app: AppDefinition) -> AppRunner {
        // A reader that goes away (`App | head`) ends nothing: writes to it fail quietly instead of the
        // process dying of SIGPIPE, which a plugin on trial would count as a crash.
        signal(SIGPIPE, SIG_IGN)
        let runner = AppRunner(
            app: app, output: { text in try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) },
            errorOutput: { text in try? FileHandle.standardError.write(contentsOf: Data(text.utf8)) },
            readLine: { Swift.readLine(strippingNewline: true) },
            environment: ProcessInfo.processInfo.environment)
        let level = (try? AppLogHandler.level(environment: runner.settings)) ?? .warning
        LoggingSystem.bootstrap { _ in AppLogHandler(level: level, write: runner.errorOutput) }
        return runner
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

    /// The shell's settings: the environment read with the app's settings prefix.
    var settings: AppEnvironment { AppEnvironment(environment, app: app) }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) async -> Int32 {
        let profiling = arguments.contains("--profile-startup") || !["0", nil].contains(settings[.profile])
        let arguments = arguments.filter { $0 != "--profile-startup" }
        // Help and signing need no log: a wrong LOG setting must not hide the text that explains it.
        switch arguments.first {
        case "help", "--help", "-h":
            output(Self.help(settings, program: app.product))
            return 0
        case "sign":
            return sign(Array(arguments.dropFirst()))
        default:
            break
        }
        let logger: Logger
        do {
            let level = try AppLogHandler.level(environment: settings)
            logger = Logger(label: "app") { _ in AppLogHandler(level: level, write: errorOutput) }
        } catch {
            errorOutput("error: the app cannot start: \(error)\n")
            return 2
        }
        let session = Session(runner: self, logger: logger, profiling: profiling)
        switch arguments.first {
        case nil:
            return await session.withApp(.plain) { app in
                var shell = InteractiveShell(app: app, runner: self)
                return await shell.run()
            }
        case "open":
            let rest = arguments.dropFirst().filter { $0 != "--external" }
            let external = rest.count < arguments.count - 1
            guard rest.count == 1, let url = rest.first, !url.hasPrefix("-") else {
                return usage("'open' takes one URL, like: \(app.product) open [--external] \(app.scheme ?? "app")://\(app.name)")
            }
            return await session.withApp(LaunchOptions(source: .url(url))) { app in
                await session.openIncoming(url, in: app, origin: external ? .deepLink : .inApp)
            }
        case "notify":
            guard arguments.count == 2 else { return usage(#"'notify' takes one payload, a JSON object like: App notify '{"type": "session-revoked"}'"#) }
            let payload: PushNotification
            do {
                payload = try PushNotification(json: arguments[1])
            } catch {
                return usage("\(error)")
            }
            return await session.withApp(LaunchOptions(source: .notification(payload))) { app in
                await app.modules.send(.notification(payload))
                output("Delivered the notification to: \(Self.listeners(of: .notification, in: app)).\n")
                return 0
            }
        case "event":
            guard let name = arguments.dropFirst().first, let values = try? Self.values(Array(arguments.dropFirst(2))) else {
                return usage("'event' takes an event name and KEY=VALUE pairs, like: App event cart.synced items=3")
            }
            return await session.withApp(.plain) { app in await session.sendEvent(name, values, in: app) }
        case "status":
            guard arguments.count == 1 else { return usage("'status' takes no arguments") }
            return await session.withApp(.plain) { app in
                output(await Self.status(app))
                return 0
            }
        case "routes":
            let options = try? CommandOptions(Array(arguments.dropFirst()), valued: ["--format"])
            let format = options?.values["--format"] ?? "text"
            guard let options, options.positional.isEmpty, ["text", "json"].contains(format) else {
                return usage("'routes' takes only --format text|json")
            }
            let json = format == "json"
            return await session.withApp(.plain) { app in
                do {
                    output(json ? try Self.routeJSON(app.router.routes, in: app) : Self.routeTable(app.router.routes, in: app))
                    return 0
                } catch {
                    errorOutput("error: \(error)\n")
                    return 1
                }
            }
        case "plugins":
            return await PluginsCommand(runner: self, logger: logger).run(Array(arguments.dropFirst()))
        case let command?:
            return usage("Unknown command '\(command)'")
        }
    }

    /// The route table: one route per line, the pattern, then the owning component (and whether it is disabled).
    static func routeTable(_ routes: [RouteDescription], in app: Bootstrap) -> String {
        guard !routes.isEmpty else { return "No route: the app has no feature yet ('componentctl new' adds one).\n" }
        let width = routes.map(\.pattern.count).max() ?? 0
        return routes.map { route in
            route.pattern.padding(toLength: width + 2, withPad: " ", startingAt: 0) + route.owner
                + (app.isDisabled(route.owner) ? " (disabled: answers \"temporarily unavailable\")" : "")
        }.joined(separator: "\n") + "\n"
    }

    /// The route table as JSON: pattern, owner, whether public, labels, whether its owner is disabled.
    static func routeJSON(_ routes: [RouteDescription], in app: Bootstrap) throws -> String {
        struct Row: Encodable {
            var pattern: String
            var owner: String
            var `public`: Bool
            var labels: [String]
            var disabled: Bool
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rows = routes.map {
            Row(pattern: $0.pattern, owner: $0.owner, public: $0.isPublic, labels: $0.labels, disabled: app.isDisabled($0.owner))
        }
        return String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n"
    }

    /// Every module, running or disabled and why, with the events it handles, once the launch work
    /// still running has ended (it may yet disable a module).
    static func status(_ app: Bootstrap) async -> String {
        await app.modules.finishDeferredLaunches()
        let statuses = app.modules.statuses
        let events = Dictionary(app.modules.modules.map { ($0.name, $0.events.sorted().map(\.name)) }, uniquingKeysWith: { a, _ in a })
        let width = (statuses.map(\.name.count).max() ?? 0) + 2
        var lines = ["Modules (\(statuses.filter { $0.state == .running }.count) of \(statuses.count) running):"]
        for status in statuses {
            let state: String
            switch status.state {
            case .running: state = "running"
            case .disabled(let reason): state = "DISABLED: \(reason)"
            }
            let handles = events[status.name].map { $0.isEmpty ? "" : " (handles \($0.joined(separator: ", ")))" } ?? ""
            lines.append("  " + status.name.padding(toLength: width, withPad: " ", startingAt: 0) + state + handles)
        }
        let announced = app.modules.announcedEvents.map(\.name)
        if !announced.isEmpty { lines.append("The app's own events: \(announced.joined(separator: ", "))") }
        if let plugins = try? app.runtimePlugins?.runStatus(), !plugins.isEmpty {
            let width = (plugins.map(\.id.count).max() ?? 0) + 2
            lines.append("Runtime plugins:")
            lines += plugins.map { "  " + $0.id.padding(toLength: width, withPad: " ", startingAt: 0) + $0.state }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The running modules that hear `kind`, for messages.
    static func listeners(of kind: LifecycleEvent.Kind, in app: Bootstrap) -> String {
        let names = app.modules.modules.filter { $0.events.contains(kind) && app.modules.isRunning($0.name) }.map(\.name)
        return names.isEmpty ? "no module" : names.joined(separator: ", ")
    }

    /// `KEY=VALUE` words as a dictionary; throws on a word without `=`.
    static func values(_ words: [String]) throws -> [String: String] {
        struct NoPair: Error {}
        var values: [String: String] = [:]
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { throw NoPair() }
            values[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return values
    }

    /// The command-line usage, with the environment variables of `settings`' prefix.
    static func help(_ settings: AppEnvironment, program: String) -> String {
        let name = settings.name
        return """
            Usage: \(program) [--profile-startup] [command]

              (no command)                interactive: the home screen, then commands from standard input
              open [--external] URL       opens one link and prints the screen (modules see it first and may
                                          rewrite or claim it); --external opens it as a deep link from outside:
                                          only public routes, and only with a valid signature
              notify PAYLOAD              delivers a push notification, a JSON object like {"type": "session-revoked"}
              event NAME [KEY=VALUE...]   sends one of the app's own lifecycle events (see 'status')
              status                      every module: running, or disabled and why; the events each handles
              sign URL [--lifetime SECS] [--once] [--key FILE]
                                          prints URL signed for outside use (default lifetime: 3600 s) with the
                                          private key FILE (or \(name(.linkSigningKey))); --once: it opens once
              routes [--format text|json] prints the route table: pattern, then owning component (a disabled
                                          module's routes are marked)
              plugins list                the installed runtime plugins: the version that loads, an update waiting
              plugins available           the plugin feed's plugins and versions, and whether each fits this App
              plugins install ID[@VER]    downloads, verifies and installs a plugin (a version by name may be older)
              plugins update [ID]         installs the newest fitting version of one or every installed plugin
              plugins remove ID           uninstalls a plugin
              help                        shows this text

            --profile-startup (or \(name(.profile))=1) prints each module's register and launch time and the time to
            the first screen on standard error when the App ends.
            Interactive commands: a link's number, a URL, back, home, routes, status, notify PAYLOAD,
            memory-warning, event NAME [KEY=VALUE...], background, foreground, plugins ..., help, quit.
            Environment (the modules read theirs too, and the app's settings by the same names):
              \(name(.dataFolder))  the data folder (the database, installed plugins, kept remote documents)
              \(name(.log))  log level: trace, debug, info, notice, warning (default), error, critical; 1 is info
              \(name(.degradeTable))  the degrade table, a JSON file
              \(name(.linkKeys))  public keys external links are signed with, comma-separated (else link-keys.json)
              \(name(.linkSigningKey))  the private key file 'sign' uses
              \(name(.webFallback))  the web site for links nothing opens
              \(name(.remoteConfig))  the remote configuration file: document URLs by name, trusted keys
              \(settings.urlName(ofDocument: "name"))  the URL of the document NAME, like \(settings.urlName(ofDocument: "degrade-table"))
              \(name(.pluginFeed))  the plugin feed's URL
              \(name(.pluginConfig))  the plugin configuration file: feed, trusted keys, timeout
              \(name(.pluginTimeout))  seconds a download may stall

            """
    }

    /// What `help` says inside the interactive shell, where the command-line usage does not apply.
    static let interactiveHelp = """
        Type one of:
          a link's number      opens that link of the screen
          a URL                opens it (the app's own scheme, or a web page)
          back                 the previous screen
          home                 the home screen
          routes               the route table: pattern, then owning component
          status               every module: running, or disabled and why
          notify PAYLOAD       delivers a push notification (a JSON object)
          memory-warning       tells the modules memory is short (caches are dropped)
          background           the App goes to the background (as a phone's home button sends it)
          foreground           the App comes back: its remote configuration is asked again, the modules hear it
          event NAME [K=V...]  sends one of the app's own lifecycle events
          plugins ...          the runtime plugins: list, available, install ID[@VERSION], update [ID],
                               remove ID (what is installed now loads at the next start)
          help                 this text
          quit (or exit)       leaves the app (so does the end of the input)

        """

    /// Where the app starts and `home` goes; nil: the shell's list of the app's routes.
    var homeURL: String? { app.start }

    private func sign(_ arguments: [String]) -> Int32 {
        let once = arguments.contains("--once")
        guard let options = try? CommandOptions(arguments.filter { $0 != "--once" }, valued: ["--lifetime", "--key"]), options.positional.count == 1,
            let url = options.positional.first
        else {
            return usage("'sign' takes a URL and optionally --lifetime SECONDS, --once and --key FILE")
        }
        // A link lives a year at most: an expiry must stay a date the verifier can read back.
        guard let lifetime = options.values["--lifetime"].map(TimeInterval.init) ?? 3600, lifetime > 0, lifetime <= 366 * 86_400 else {
            return usage("--lifetime takes a number of seconds above 0 and at most a year (31622400)")
        }
        do {
            _ = try RouteURL(url)
            let signer = try settings.linkSigner(keyFile: options.values["--key"])
            output(try signer.sign(url, lifetime: lifetime, once: once) + "\n")
            return 0
        } catch {
            errorOutput("error: \(error)\n")
            return 2
        }
    }

    func usage(_ message: String) -> Int32 {
        errorOutput("error: \(message). Run '\(app.product) help' for the commands.\n")
        return 2
    }
}

/// One run of the App: the boot, the command, the clean end and the startup profile.
struct Session: Sendable {
    let runner: AppRunner
    let logger: Logger
    let profiling: Bool

    /// Boots the app with `options`, runs `body`, and ends the run cleanly (an interrupt ends it as cleanly).
    func withApp(_ options: LaunchOptions, _ body: (Bootstrap) async -> Int32) async -> Int32 {
        let profile = StartupProfile(started: runner.started)
        // Watching from before the boot: an interrupt while plugins load is no crash either.
        let run = RunEnd()
        let interrupts = InterruptWatch { signal in
            run.interrupted()
            exit(128 + signal)
        }
        defer { interrupts.stop() }
        let app: Bootstrap
        do {
            app = try await Bootstrap.boot(
                environment: runner.settings, app: runner.app, launch: options, logger: logger, profile: profile, progress: runner.errorOutput,
                run: run)
        } catch let error as PluginConfigurationError {
            runner.errorOutput("error: the app cannot start: its plugin declaration is wrong:\n\(error)\n")
            return 2
        } catch {
            runner.errorOutput("error: the app cannot start: \(error)\n")
            return 2
        }
        run.started(app)
        let status = await body(app)
        interrupts.stop()
        await app.finish()
        if profiling { runner.errorOutput(profile.table(modules: app.modules.statuses)) }
        return status
    }

    /// Opens `url` as a link from outside the app's screens: a link from outside the app (`origin`) must
    /// first carry a valid signature; then the modules that declare `open-url` see it and may rewrite or
    /// claim it; then the router opens what is left (from outside: public routes only).
    func openIncoming(_ url: String, in app: Bootstrap, origin: RouteOrigin) async -> Int32 {
        do {
            try app.router.checkSignature(ofExternalLink: url, origin: origin)
        } catch {
            return failed(error, url: url)
        }
        let incoming = IncomingURL(url)
        await app.modules.send(.openURL(incoming))
        if let module = incoming.claimedBy {
            runner.output("'\(url)' was taken over by \(module).\n")
            app.profile.firstScreenShown()
            return 0
        }
        return await open(incoming.url, in: app, origin: origin, signatureChecked: true)
    }

    /// Opens `url` and prints its screen.
    func open(_ url: String, in app: Bootstrap, origin: RouteOrigin, signatureChecked: Bool = false) async -> Int32 {
        let screen: Screen
        do {
            screen = try await app.screen(url, origin: origin, signatureChecked: signatureChecked)
        } catch {
            return failed(error, url: url)
        }
        runner.output(TextRenderer(showsURLs: true).render(screen) + "\n")
        app.profile.firstScreenShown()
        return 0
    }

    /// Reports why `url` did not open: 2 for a URL that cannot be parsed, else 1.
    private func failed(_ error: any Error, url: String) -> Int32 {
        if let error = error as? RouterError {
            runner.errorOutput("error: \(error)\n")
            return error.code == .invalidURL ? 2 : 1
        }
        runner.errorOutput("error: opening '\(url)' failed: \(error)\n")
        return 1
    }

    /// Sends the app's own event `name`; 2 when no module announces it.
    func sendEvent(_ name: String, _ values: [String: String], in app: Bootstrap) async -> Int32 {
        do {
            try await app.modules.context.lifecycle.send(LifecycleEvent.Kind(name), values)
            runner.output("Sent \(name) to: \(AppRunner.listeners(of: LifecycleEvent.Kind(name), in: app)).\n")
            return 0
        } catch {
            runner.errorOutput("error: \(error)\n")
            return 2
        }
    }
}
