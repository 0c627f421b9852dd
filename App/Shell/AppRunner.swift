import ArgumentParser
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

    /// Runs `arguments` (without the program name) and returns the exit status (``AppExit``).
    public func run(_ arguments: [String]) async -> Int32 {
        await execute(arguments).rawValue
    }

    private func execute(_ arguments: [String]) async -> AppExit {
        // It may come anywhere before a lone `--` (after it, the word is an argument): the profile is the run's, not one command's.
        let options = arguments.prefix { $0 != "--" }
        let profiling = options.contains("--profile-startup") || !["0", nil].contains(settings[.profile])
        let command: any ParsableCommand
        do {
            command = try AppCommandLine.command(options.filter { $0 != "--profile-startup" } + arguments.dropFirst(options.count))
        } catch {
            // Help and usage errors need no log: a wrong LOG setting must not hide the text that explains it.
            let message = AppCommandLine.message(for: error, program: app.product)
            guard message.isHelp else {
                errorOutput(message.text + "\n")
                return .usage
            }
            let topic = helpTopic(in: arguments)
            if let topic, !AppCommandLine.configuration.subcommands.contains(where: { $0._commandName == topic }) {
                errorOutput("error: '\(topic)' is no command of \(app.product); '\(app.product) help' lists them.\n")
                return .usage
            }
            output(message.text + "\n" + (topic == nil ? Self.moreHelp(settings) : ""))
            return .ok
        }
        if let sign = command as? AppCommandLine.Sign { return self.sign(sign) }
        let logger: Logger
        do {
            let level = try AppLogHandler.level(environment: settings)
            logger = Logger(label: "app") { _ in AppLogHandler(level: level, write: errorOutput) }
        } catch {
            errorOutput("error: the app cannot start: \(error)\n")
            return .usage
        }
        return await Session(runner: self, logger: logger, profiling: profiling).run(command)
    }

    /// The command a help request names, if any: `open` in `open --help` or `help open`.
    private func helpTopic(in arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") && $0 != "help" }
        return words.first
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

    /// What the parser's help cannot say: the profile, the interactive commands, and the environment
    /// variables with the prefix of `settings`.
    static func moreHelp(_ settings: AppEnvironment) -> String {
        let name = settings.name
        return """

            --profile-startup (or \(name(.profile))=1) prints each module's register and launch time and the time to
            the first screen on standard error when the app ends.
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

    private func sign(_ command: AppCommandLine.Sign) -> AppExit {
        do {
            _ = try RouteURL(command.url)
            let signer = try settings.linkSigner(keyFile: command.key)
            output(try signer.sign(command.url, lifetime: command.lifetime, once: command.once) + "\n")
            return .ok
        } catch {
            errorOutput("error: \(error)\n")
            return .usage
        }
    }

    func usage(_ message: String) -> AppExit {
        errorOutput("error: \(message). Run '\(app.product) help' for the commands.\n")
        return .usage
    }
}

/// One run of the App: the boot, the command, the clean end and the startup profile.
struct Session: Sendable {
    let runner: AppRunner
    let logger: Logger
    let profiling: Bool

    /// Runs the parsed `command`: the interactive shell when it names none.
    func run(_ command: any ParsableCommand) async -> AppExit {
        switch command {
        case let open as AppCommandLine.Open:
            return await withApp(LaunchOptions(source: .url(open.url))) { app in
                await openIncoming(open.url, in: app, origin: open.external ? .deepLink : .inApp)
            }
        case let notify as AppCommandLine.Notify:
            let payload: PushNotification
            do {
                payload = try PushNotification(json: notify.payload)
            } catch {
                return runner.usage("\(error)")
            }
            return await withApp(LaunchOptions(source: .notification(payload))) { app in
                await app.modules.send(.notification(payload))
                runner.output("Delivered the notification to: \(AppRunner.listeners(of: .notification, in: app)).\n")
                return .ok
            }
        case let event as AppCommandLine.Event:
            let values = (try? AppRunner.values(event.values)) ?? [:]
            return await withApp(.plain) { app in await sendEvent(event.name, values, in: app) }
        case is AppCommandLine.Status:
            return await withApp(.plain) { app in
                runner.output(await AppRunner.status(app))
                return .ok
            }
        case let routes as AppCommandLine.Routes:
            return await withApp(.plain) { app in
                do {
                    let table = app.router.routes
                    runner.output(routes.format == .json ? try AppRunner.routeJSON(table, in: app) : AppRunner.routeTable(table, in: app))
                    return .ok
                } catch {
                    runner.errorOutput("error: \(error)\n")
                    return .failed
                }
            }
        case is AppCommandLine.Plugins:
            return runner.usage(PluginsCommand.usage)
        default:
            if let action = AppCommandLine.Plugins.action(command) {
                return await PluginsCommand(runner: runner, logger: logger).run(action)
            }
            return await withApp(.plain) { app in
                var shell = InteractiveShell(app: app, runner: runner)
                return await shell.run()
            }
        }
    }

    /// Boots the app with `options`, runs `body`, and ends the run cleanly (an interrupt ends it as cleanly).
    func withApp(_ options: LaunchOptions, _ body: (Bootstrap) async -> AppExit) async -> AppExit {
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
            return .usage
        } catch {
            runner.errorOutput("error: the app cannot start: \(error)\n")
            return .usage
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
    func openIncoming(_ url: String, in app: Bootstrap, origin: RouteOrigin) async -> AppExit {
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
            return .ok
        }
        return await open(incoming.url, in: app, origin: origin, signatureChecked: true)
    }

    /// Opens `url` and prints its screen.
    func open(_ url: String, in app: Bootstrap, origin: RouteOrigin, signatureChecked: Bool = false) async -> AppExit {
        let screen: Screen
        do {
            screen = try await app.screen(url, origin: origin, signatureChecked: signatureChecked)
        } catch {
            return failed(error, url: url)
        }
        runner.output(TextRenderer(showsURLs: true).render(screen) + "\n")
        app.profile.firstScreenShown()
        return .ok
    }

    /// Reports why `url` did not open: a usage error for a URL that cannot be parsed, else a failure.
    private func failed(_ error: any Error, url: String) -> AppExit {
        if let error = error as? RouterError {
            runner.errorOutput("error: \(error)\n")
            return error.code == .invalidURL ? .usage : .failed
        }
        runner.errorOutput("error: opening '\(url)' failed: \(error)\n")
        return .failed
    }

    /// Sends the app's own event `name`; a usage error when no module announces it.
    func sendEvent(_ name: String, _ values: [String: String], in app: Bootstrap) async -> AppExit {
        do {
            try await app.modules.context.lifecycle.send(LifecycleEvent.Kind(name), values)
            runner.output("Sent \(name) to: \(AppRunner.listeners(of: LifecycleEvent.Kind(name), in: app)).\n")
            return .ok
        } catch {
            runner.errorOutput("error: \(error)\n")
            return .usage
        }
    }
}
