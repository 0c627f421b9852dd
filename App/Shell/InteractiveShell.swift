import Router
import ScreenKit

/// The terminal shell: renders a screen, numbers its links, and reads what to do next. Starting is
/// `foreground`; the end of input, `quit` or Ctrl-C is `background` (unless the App is there already),
/// then `terminate`, when the run ends.
struct InteractiveShell {
    let app: Bootstrap
    let runner: AppRunner
    private var navigator = Navigator()

    init(app: Bootstrap, runner: AppRunner) {
        self.app = app
        self.runner = runner
    }

    mutating func run() async -> AppExit {
        await app.comeToForeground(environment: runner.settings, app: runner.app, refreshing: false)
        await openHome()
        app.profile.firstScreenShown()
        while true {
            runner.output("> ")
            guard let line = runner.readLine() else {
                runner.output("\n")
                break
            }
            let command = line.trimmingCharacters(in: .whitespaces)
            if command == "quit" || command == "exit" { break }
            await handle(command)
        }
        await app.goToBackground()
        return .ok
    }

    private mutating func handle(_ command: String) async {
        let words = command.split(separator: " ", maxSplits: 1).map(String.init)
        switch words.first ?? "" {
        case "":
            if let screen = navigator.current { show(screen) }
        case "back":
            guard let screen = navigator.back() else { return runner.output("Already at the first screen.\n") }
            if let url = screen.refreshURL, let fresh = try? await app.screen(url) {
                navigator.replaceCurrent(with: fresh)
                show(fresh)
            } else {
                show(screen)
            }
        case "home":
            await openHome()
        case "routes":
            runner.output(AppRunner.routeTable(app.router.routes, in: app))
        case "status":
            runner.output(await AppRunner.status(app))
        case "help":
            runner.output(AppRunner.interactiveHelp)
        case "background":
            await app.goToBackground()
            runner.output("The App is in the background; 'foreground' brings it back.\n")
        case "foreground":
            await app.comeToForeground(environment: runner.settings, app: runner.app)
            await openHome()
        case "memory-warning":
            await app.modules.send(.memoryWarning)
            runner.output("Told \(AppRunner.listeners(of: .memoryWarning, in: app)) that memory is short.\n")
        case "notify":
            do {
                let payload = try PushNotification(json: words.count == 2 ? words[1] : "")
                await app.modules.send(.notification(payload))
                runner.output("Delivered the notification to: \(AppRunner.listeners(of: .notification, in: app)).\n")
            } catch {
                runner.output("Cannot deliver it: \(error).\n")
            }
        case "event":
            let parts = command.split(separator: " ").dropFirst().map(String.init)
            guard let name = parts.first, let values = try? AppRunner.values(Array(parts.dropFirst())) else {
                return runner.output("'event' takes an event name and KEY=VALUE pairs, like: event sync.finished items=3\n")
            }
            do {
                try await app.modules.context.lifecycle.send(LifecycleEvent.Kind(name), values)
                runner.output("Sent \(name) to: \(AppRunner.listeners(of: LifecycleEvent.Kind(name), in: app)).\n")
            } catch {
                runner.output("Cannot send it: \(error)\n")
            }
        case "plugins":
            let words = command.split(separator: " ").dropFirst().map(String.init)
            guard let parsed = try? AppCommandLine.Plugins.parseAsRoot(words), let action = AppCommandLine.Plugins.action(parsed) else {
                return runner.output("Cannot do that: \(PluginsCommand.usage).\n")
            }
            _ = await PluginsCommand(runner: runner, logger: app.observer.logger).run(action)
        case _ where command.contains("://"):
            await open(command)
        default:
            guard let number = Int(command) else {
                runner.output(
                    "Unknown command '\(command)'. Type a link number, a URL, back, home, routes, status, notify, memory-warning, event, "
                        + "background, foreground, plugins, help or quit.\n"
                )
                return
            }
            let links = navigator.current?.links ?? []
            guard links.indices.contains(number - 1) else {
                runner.output("There is no link \(number) on this screen; choose 1 to \(links.count).\n")
                return
            }
            await open(links[number - 1].url)
        }
    }

    /// The app's start, or the shell's list of its routes when components.yaml names no start.
    private mutating func openHome() async {
        guard let url = runner.app.start else {
            let screen = ShellScreens.routeList(app.router.routes, app: runner.app.name)
            navigator.push(screen)
            return show(screen)
        }
        await open(url)
    }

    private mutating func open(_ url: String) async {
        do {
            let screen = try await app.screen(url)
            navigator.push(screen)
            show(screen)
        } catch {
            let shown = url.count > 200 ? url.prefix(200) + "…" : Substring(url)
            runner.output("Cannot open '\(shown)': \(error)\n")
        }
    }

    private func show(_ screen: Screen) {
        runner.output("\n" + TextRenderer().render(screen) + "\n")
    }
}
