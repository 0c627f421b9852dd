import ArgumentParser

/// The App's command line, parsed by swift-argument-parser: `AppRunner` parses it and runs what it names.
/// Without a command the App is interactive. Its help adds what the parser cannot know (the settings'
/// prefix, the interactive commands), and every message names the app's own executable.
struct AppCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: AppCommandLine.placeholder,
        abstract: "Runs the app: interactively (no command), or one command and exits.",
        usage: "\(AppCommandLine.placeholder) [--profile-startup] [<subcommand>]",
        subcommands: [Open.self, Notify.self, Event.self, Status.self, Sign.self, Routes.self, Plugins.self])

    /// The name the parser's messages use, replaced by the app's executable before they are shown.
    static let placeholder = "app-executable"

    /// Opens one link and prints the screen.
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Opens one link and prints the screen (modules see it first and may rewrite or claim it).")
        @Flag(help: "Open it as a deep link from outside: only public routes, and only with a valid signature.") var external = false
        @Argument(help: "The link, like scheme://host/path.") var url: String
    }

    /// Delivers a push notification.
    struct Notify: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delivers a push notification.")
        @Argument(help: #"A JSON object like {"type": "session-revoked"}."#) var payload: String
    }

    /// Sends one of the app's own lifecycle events.
    struct Event: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sends one of the app's own lifecycle events (see 'status').")
        @Argument(help: "The event's name, like sync.finished.") var name: String
        @Argument(help: "Values the event carries, as KEY=VALUE.") var values: [String] = []

        func validate() throws {
            for value in values where !value.dropFirst().contains("=") {
                throw ValidationError("'\(value)' is no KEY=VALUE pair, like items=3")
            }
        }
    }

    /// Lists the modules and the runtime plugins.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists every module (running, or disabled and why, the events each handles) and the runtime plugins.")
    }

    /// Signs a link for use from outside the app.
    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints a link signed for use from outside the app.")
        /// A link lives a year at most: an expiry must stay a date the verifier can read back.
        static let longestLifetime: Double = 366 * 86_400
        @Argument(help: "The link to sign.") var url: String
        @Option(help: "Seconds the link stays valid, from 1 to a year (31622400).") var lifetime: Double = 3600
        @Flag(help: "The link opens once.") var once = false
        @Option(help: "The private key file (else the LINK_SIGNING_KEY setting).") var key: String?

        func validate() throws {
            guard lifetime >= 1, lifetime <= Self.longestLifetime else {
                throw ValidationError("--lifetime takes a number of seconds from 1 to a year (31622400)")
            }
        }
    }

    /// Prints the route table.
    struct Routes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the route table: pattern, then owning component (a disabled module's routes are marked).")
        /// How the table is printed.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }
        @Option(help: "text or json.") var format: Format = .text
    }

    /// The runtime plugins: what is installed, the feed's, and changes.
    struct Plugins: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The runtime plugins: what is installed, the feed's, and changes to them.",
            subcommands: [List.self, Available.self, Install.self, Update.self, Remove.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The installed plugins: the version that loads, an update waiting.")
        }

        struct Available: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The feed's plugins and versions, and whether each fits this app.")
        }

        struct Install: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Downloads, verifies and installs a plugin (a version by name may be older).")
            @Argument(help: "The plugin's id, and optionally @VERSION.") var plugin: String
        }

        struct Update: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Installs the newest fitting version of one or every installed plugin.")
            @Argument(help: "The plugin's id (default: every installed plugin).") var plugin: String?
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Uninstalls a plugin.")
            @Argument(help: "The plugin's id.") var plugin: String
        }

        /// The action `command` (a parsed subcommand of `plugins`) asks for; nil for `plugins` alone.
        static func action(_ command: any ParsableCommand) -> PluginsCommand.Action? {
            switch command {
            case is List: .list
            case is Available: .available
            case let install as Install: .install(install.plugin)
            case let update as Update: .update(update.plugin)
            case let remove as Remove: .remove(remove.plugin)
            default: nil
            }
        }
    }

    /// Every command the App runs.
    private static let commands: [any ParsableCommand.Type] = [
        AppCommandLine.self, Open.self, Notify.self, Event.self, Status.self, Sign.self, Routes.self, Plugins.self,
        Plugins.List.self, Plugins.Available.self, Plugins.Install.self, Plugins.Update.self, Plugins.Remove.self,
    ]

    /// `arguments` parsed; a help request or a usage error is thrown as the parser throws it.
    static func command(_ arguments: [String]) throws -> any ParsableCommand {
        var command = try parseAsRoot(arguments)
        // A help request parses as the parser's own help command, whose run throws the help as a clean exit.
        if !commands.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type(of: command)) }) { try command.run() }
        return command
    }

    /// The parser's message for `error` with the app's executable named, and whether it is a help request.
    static func message(for error: any Error, program: String) -> (text: String, isHelp: Bool) {
        let isHelp = exitCode(for: error) == .success
        return (fullMessage(for: error).replacingOccurrences(of: placeholder, with: program), isHelp)
    }
}
