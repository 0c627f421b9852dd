import Foundation
import Testing

/// Modules on the fixture app: one that fails (on its own, or as NOTES_FAIL_MODULE says) is disabled with
/// what depends on it and the App runs; lifecycle events reach the modules that declare them, in order.
@Suite struct ShellModuleLifecycleTests {
    /// Notes, reminders (needs notes), the journal (boots first) and an archive that fails to register.
    private let definition = ShellFixture.definition(adding: [
        ShellFixture.RemindersModule(), ShellFixture.JournalModule(), ShellFixture.ArchiveModule(),
    ])

    @Test func aModuleThatFailsToRegisterIsDisabledAndTheAppRuns() async throws {
        let app = InProcessApp(definition)
        defer { app.remove() }
        let archive = await app.run(["open", "myapp://archive"])
        #expect(archive.status == 0)
        #expect(archive.output.hasPrefix("== Temporarily unavailable =="), "\(archive.output)")
        #expect(archive.output.contains("'myapp://archive' belongs to archive, which is not working right now"))
        #expect(
            archive.errors.contains("error: module disabled module=archive reason=it failed to register: the archive index is missing"), "\(archive.errors)")
        #expect((await app.run(["open", "myapp://notes/1"])).output.hasPrefix("== Note 1 =="), "everything else boots")
        #expect((await app.run(["open", "myapp://reminders"])).output.hasPrefix("== Reminders =="))
        let status = await app.run(["status"])
        #expect(status.status == 0)
        #expect(status.output.contains("Modules (3 of 4 running):"), "\(status.output)")
        #expect(status.output.contains("DISABLED: it failed to register: the archive index is missing"), "\(status.output)")
        let routes = await app.run(["routes"]).output.split(separator: "\n")
        #expect(routes.contains { $0.hasPrefix("myapp://archive ") && $0.hasSuffix("archive (disabled: answers \"temporarily unavailable\")") }, "\(routes)")
        #expect(routes.contains { $0.hasPrefix("myapp://notes ") && $0.hasSuffix("notes") })
    }

    @Test func aModuleMadeToFailIsDisabledWithItsDependentsAndTheAppRuns() async throws {
        var app = try InProcessApp(definition).signingLinks()
        defer { app.remove() }
        app.environment["NOTES_FAIL_MODULE"] = "notes"
        let page = await app.run(["open", "myapp://notes/1"])
        #expect(page.status == 0)
        #expect(page.output.hasPrefix("== Temporarily unavailable =="), "\(page.output)")
        #expect(
            page.errors.contains("error: module disabled module=notes reason=it failed to register: it fails on purpose (NOTES_FAIL_MODULE)"), "\(page.errors)")
        #expect(page.errors.contains("error: module disabled module=reminders reason=its dependency 'notes' is disabled"), "\(page.errors)")
        #expect((await app.run(["open", "myapp://reminders"])).output.hasPrefix("== Temporarily unavailable =="), "a dependent's routes too")
        #expect((await app.run(["open", "myapp://nowhere"])).output.hasPrefix("== Page not found =="), "the shell's own screens still open")
        let status = await app.run(["status"])
        #expect(status.output.contains("Modules (1 of 4 running):"), "journal runs, archive fails on its own: \(status.output)")
        #expect(status.output.contains("DISABLED: its dependency 'notes' is disabled"))
        let json = await app.run(["routes", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let note = try #require(rows.first { $0["pattern"] as? String == "myapp://notes/<int:id>" })
        #expect(note["disabled"] as? Bool == true && note["public"] as? Bool == true && note["owner"] as? String == "notes")
        // A route the module registered stays public while it is disabled: a signed link gets the same answer.
        let signed = await app.run(["open", "--external", await app.sign("myapp://notes/1")])
        #expect(signed.output.hasPrefix("== Temporarily unavailable =="), "\(signed.errors)")
        // A declared route its module never got to register stays private.
        let reminders = await app.run(["open", "--external", await app.sign("myapp://reminders")])
        #expect(reminders.status == 1)
        #expect(reminders.errors.contains("is not a public route"), "\(reminders.errors)")
        // A degrade rule still applies to a disabled module's route.
        app.environment["NOTES_DEGRADE_TABLE"] = try app.write(
            #"{"rules": [{"pattern": "myapp://notes/<int:noteID>", "target": "https://m.notes.example/n/{id}"}]}"#, to: "degrade.json"
        ).path
        #expect((await app.run(["open", "myapp://notes/5"])).output.contains("The web container shows https://m.notes.example/n/5"))
    }

    @Test func aModuleThatFailsToLaunchIsDisabledAfterRegistering() async throws {
        var app = InProcessApp(definition)
        defer { app.remove() }
        app.environment["NOTES_FAIL_MODULE"] = "reminders:launch"
        let run = await app.run(["open", "myapp://reminders"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("== Temporarily unavailable =="), "\(run.output)")
        #expect(run.errors.contains("module=reminders reason=it failed to launch: it fails on purpose (NOTES_FAIL_MODULE)"), "\(run.errors)")
        #expect((await app.run(["open", "myapp://notes"])).output.hasPrefix("== Notes =="), "what it depends on runs")
        for (setting, message) in [
            ("nothing", "NOTES_FAIL_MODULE names 'nothing', which is no module of this app; it has archive, journal, notes, reminders"),
            ("notes:", "NOTES_FAIL_MODULE is 'notes:'; it takes a module's name, then optionally :register or :launch"),
        ] {
            app.environment["NOTES_FAIL_MODULE"] = setting
            let wrong = await app.run(["open", "myapp://notes"])
            #expect(wrong.status == 2, "the shell's own settings are what stops a start")
            #expect(wrong.errors.contains(message), "\(wrong.errors)")
        }
    }

    @Test func eachEventReachesTheModulesThatDeclareItInBootOrderAndTheWayDownReversed() async throws {
        var app = InProcessApp(definition)
        defer { app.remove() }
        app.environment["NOTES_LOG"] = "debug"
        let run = await app.run([], input: ["memory-warning", #"notify {"type": "ping"}"#, "event journal.synced items=3", "quit"])
        #expect(run.status == 0)
        #expect(run.output.contains("Told journal, reminders that memory is short."), "\(run.output)")
        #expect(run.output.contains("Delivered the notification to: journal."))
        #expect(run.output.contains("Sent journal.synced to: reminders."))
        let delivered = run.errors.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("debug: lifecycle event delivered ") else { return nil }
            return line.split(separator: " ").filter { $0.hasPrefix("event=") || $0.hasPrefix("module=") }.joined(separator: " ")
        }
        #expect(
            delivered == [
                "event=launch module=journal", "event=launch module=reminders", "event=foreground module=journal",
                "event=memory-warning module=journal", "event=memory-warning module=reminders", "event=notification module=journal",
                "event=journal.synced module=reminders", "event=background module=reminders", "event=background module=journal",
                "event=terminate module=reminders", "event=terminate module=journal",
            ], "\(run.errors)")
    }

    @Test func statusListsTheModulesInBootOrderWithTheEventsEachHandles() async throws {
        let app = InProcessApp(definition)
        defer { app.remove() }
        let lines = await app.run(["status"]).output.split(separator: "\n").map(String.init)
        let modules = lines.filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " } }
        #expect(modules == ["journal", "archive", "notes", "reminders"], "priority first, then name; dependencies before: \(lines)")
        #expect(
            lines.contains { $0.hasPrefix("  journal ") && $0.hasSuffix("(handles background, foreground, launch, memory-warning, notification, terminate)") })
        #expect(lines.contains { $0.hasPrefix("  reminders ") && $0.contains("running (handles background, journal.synced, launch") })
        #expect(lines.contains("The app's own events: journal.synced"), "\(lines)")
    }

    @Test func eventsOfTheAppsOwnMustBeAnnouncedAndBuiltInOnesAreTheAppsAlone() async throws {
        let app = InProcessApp(definition)
        defer { app.remove() }
        let unknown = await app.run(["event", "nobody.announces-this"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("neither built in nor announced by a module"), "\(unknown.errors)")
        let builtIn = await app.run(["event", "launch"])
        #expect(builtIn.status == 2)
        #expect(builtIn.errors.contains("'launch' is a built-in lifecycle event: only the App itself sends it"), "\(builtIn.errors)")
        let sent = await app.run(["event", "journal.synced", "items=3"])
        #expect(sent.status == 0)
        #expect(sent.output == "Sent journal.synced to: reminders.\n")
        let notified = await app.run(["notify", #"{"type": "ping"}"#])
        #expect(notified.output == "Delivered the notification to: journal.\n")
        #expect((await app.run(["notify", "not json"])).status == 2)
    }
}
