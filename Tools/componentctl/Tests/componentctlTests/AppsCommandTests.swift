import Foundation
import Testing
import TestSupport

/// Apps on the fixture workspace, through the built binary: components.yaml's `apps:` checked, each app's
/// sources and Package.swift's block generated and kept fresh, the closed-app check, and what `list`,
/// `graph`, `status`, `new` and `remove` do with apps.
@Suite struct AppsCommandTests {
    private func tool(_ scratch: Scratch, _ arguments: String...) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments + ["--root", scratch.root.path])
    }

    /// Every path and the bytes of every file outside `.git`: what a refused command must leave alone.
    private func state(_ scratch: Scratch) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try scratch.listing() {
            files[path] = FileManager.default.contents(atPath: scratch.root.appendingPathComponent(path).path) ?? Data()
        }
        return files
    }

    /// The fixture with `shelf-only` (shelf; reader left out) and `full` (both, product `Library`), synced and committed.
    private func twoApps() throws -> Scratch {
        let scratch = try Scratch.fixture()
        try scratch.declareApps(
            """
              shelf-only:
                components: [shelf]
                missing:
                  reader: not-in-app
              full:
                product: Library
                components: [shelf, reader]

            """)
        try scratch.commitAsNewRepository()
        return scratch
    }

    @Test func syncGeneratesEveryAppAndCheckNoticesEveryStalePart() throws {
        let scratch = try twoApps()
        let stale = try tool(scratch, "sync", "--check")
        #expect(stale.status == 1)
        #expect(stale.output.contains("App/shelf-only/main.swift"))
        #expect(try tool(scratch, "sync").status == 0)
        #expect(try tool(scratch, "sync", "--check").status == 0)
        let manifest = try scratch.read("Package.swift")
        #expect(
            manifest.contains(
                #".executableTarget(name: "ShelfOnly", dependencies: ["Shell", .product(name: "Routing", package: "Routing")], path: "App/shelf-only"),"#))
        #expect(manifest.contains(#".executable(name: "Library", targets: ["Library"]),"#))
        #expect(manifest.contains("let shellProducts: [Target.Dependency] = [\n    .product(name: \"Routing\", package: \"Routing\"),\n]"))
        #expect(manifest.contains("    .package(path: \"Packages/Foundation/Routing\"),\n"), "the root depends on what the shell and the apps name")
        #expect(try scratch.read("App/shelf-only/main.swift").contains("AppRunner.standard(GeneratedApp.definition)"))
        let lite = try scratch.read("App/shelf-only/GeneratedApp.swift")
        #expect(lite.contains(#"AbsentFeature(component: "reader", patterns: ["lib://book/<int:id>"], web: nil),"#))
        #expect(try !scratch.read("App/full/GeneratedApp.swift").contains("AbsentFeature("))
        // Each module's routes (its interface's and its own), for the App to answer "temporarily unavailable" when it is disabled.
        #expect(try scratch.read("App/full/GeneratedApp.swift").contains(#"                "reader": ["lib://book/<int:id>"],"#))
        #expect(!lite.contains(#""reader": ["#), "a feature the app leaves out has no module")

        // components.yaml changes what an app does for a left-out feature.
        try scratch.replace(in: "components.yaml", "reader: not-in-app", with: "reader: https://books.example/")
        #expect(try tool(scratch, "sync", "--check").status == 1)
        #expect(try tool(scratch, "sync").status == 0)
        #expect(try scratch.read("App/shelf-only/GeneratedApp.swift").contains(#"web: "https://books.example/")"#))
        // A source declares a module.
        try scratch.write("Packages/Business/Shelf/Sources/Shelf/ShelfAppModule.swift", "public struct ShelfAppModule: AppModule {}\n")
        let module = try tool(scratch, "sync", "--check")
        #expect(module.status == 1)
        #expect(module.output.contains("App/full/GeneratedApp.swift, App/shelf-only/GeneratedApp.swift"))
        // Files an app embeds, and its settings.
        try scratch.write("App/Config/layout.json", "{\"title\": \"Shelf\"}\n")
        try scratch.write("App/Config/degrade.json", "{\"rules\": []}\n")
        try scratch.replace(
            in: "components.yaml", "    components: [shelf, reader]\n",
            with: "    components: [shelf, reader]\n    setting-files:\n      shelf.layout: App/Config/layout.json\n"
                + "    degrade: App/Config/degrade.json\n    settings:\n      LIBRARY_LOG: 1\n")
        #expect(try tool(scratch, "sync").status == 0)
        let full = try scratch.read("App/full/GeneratedApp.swift")
        #expect(
            full.contains(
                "settings: [\n                \"LIBRARY_LOG\": \"1\",\n                \"shelf.layout\": \"{\\\"title\\\": \\\"Shelf\\\"}\\n\",\n            ],"
            ))
        #expect(full.contains(#"degradeTable: "{\"rules\": []}\n","#))
        try scratch.write("App/Config/layout.json", "{\"title\": \"Books\"}\n")
        #expect(try tool(scratch, "sync", "--check").status == 1, "an embedded file changed")
        #expect(try tool(scratch, "sync").status == 0)
        // A setting file is any text; a degrade table must be JSON, or the app would refuse to start.
        try scratch.write("App/Config/layout.json", "not JSON\n")
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.write("App/Config/degrade.json", "{\"rules\": \n")
        let broken = try tool(scratch, "sync")
        #expect(broken.status == 2)
        #expect(broken.error.contains("'App/Config/degrade.json', named in components.yaml's apps, is not valid JSON"))
        try scratch.write("App/Config/degrade.json", "{\"rules\": []}\n")
        // A hand edit of a generated file.
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.replace(in: "App/full/main.swift", "exit(status)", with: "exit(0)")
        #expect(try tool(scratch, "sync", "--check").status == 1)
    }

    @Test func anAppIsNeverGeneratedIntoAFolderOfYours() throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps("  tools:\n    product: ToolsApp\n    components: [shelf]\n")
        try scratch.write("App/Tools/Helper.swift", "enum Helper {}\n")
        try scratch.commitAsNewRepository()
        let before = try state(scratch)
        let refused = try tool(scratch, "sync")
        #expect(refused.status == 2)
        #expect(
            refused.error.contains("app 'tools' would be generated into App/tools, but 'App/Tools' is a folder of yours; give the app another name"),
            "\(refused.error)")
        #expect(try state(scratch) == before)
    }

    @Test func aSettingFileIsTheWorkspacesNeverOneALinkBringsIn() throws {
        let scratch = try Scratch.fixture()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).json")
        try Data("{}".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("App/Config"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent("App/Config/link.json").path, withDestinationPath: outside.path)
        try scratch.declareApps("  a:\n    components: [shelf]\n    setting-files:\n      layout: App/Config/link.json\n")
        try scratch.commitAsNewRepository()
        let refused = try tool(scratch, "sync")
        #expect(refused.status == 2)
        #expect(refused.error.contains("apps.a.setting-files.layout 'App/Config/link.json' is a link to"), "\(refused.error)")
        #expect(refused.error.contains("outside the workspace. Fix: copy the file into the workspace and name the copy"))
    }

    @Test func anAppNoLongerDeclaredLosesItsGeneratedFolderButNeverAFileOfYours() throws {
        let scratch = try twoApps()
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "apps generated")
        try scratch.replace(in: "components.yaml", "  full:\n    product: Library\n    components: [shelf, reader]\n", with: "")
        try scratch.write("App/full/Notes.md", "mine\n")
        let before = try state(scratch)
        let refused = try tool(scratch, "sync")
        #expect(refused.status == 2)
        #expect(refused.error.contains("'App/full' belongs to no app of components.yaml, but 'App/full/Notes.md' was not generated by componentctl"))
        #expect(try state(scratch) == before)

        // A file of yours that starts like a generated one is kept too: git could not give it back.
        let marker = try #require(try scratch.read("App/full/main.swift").split(separator: "\n").first)
        try scratch.write("App/tools/main.swift", "\(marker)\nprint(\"my own tool\")\n")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("App/full/Notes.md"))
        let uncommitted = try tool(scratch, "sync")
        #expect(uncommitted.status == 2)
        #expect(
            uncommitted.error.contains("'App/tools' belongs to no app of components.yaml, but git could not give back App/tools/main.swift"),
            "\(uncommitted.error)")
        #expect(try scratch.read("App/tools/main.swift").hasSuffix("my own tool\")\n"))
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("App/tools"))

        let synced = try tool(scratch, "sync")
        #expect(synced.status == 0, "\(synced.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("App/full").path))
        #expect(try !scratch.read("Package.swift").contains(".executable(name: \"Library\""))
        #expect(try tool(scratch, "sync", "--check").status == 0)
    }

    @Test(arguments: [
        ("  a:\n    components: [shelv]\n", "app 'a' names unknown component 'shelv'. Fix: did you mean 'shelf'?"),
        ("  a:\n    components: [shelf-interface]\n", "'shelf-interface' in app 'a' is an interface: interfaces come along with the components that use them"),
        ("  a:\n    components: [catalog]\n", "'catalog' in app 'a' is in layer core: it comes along with the components that depend on it"),
        ("  a:\n    components: [shelf]\n  a:\n    components: [reader]\n", "duplicate key 'a'"),
        ("  a:\n    components: shelf\n", "apps.a.components must be a list, not a scalar"),
        (
            "  a:\n    components: [shelf]\n    setting-files:\n      x: components.yaml\n    settings:\n      x: 1\n",
            "setting 'x' of app 'a' is under both settings: and setting-files:"
        ),
        ("  a:\n    product: A\n", "the key 'components' is missing"),
        ("  a:\n    components: [shelf, shelf]\n", "'shelf' is listed twice in app 'a'"),
        ("  a:\n    product: X\n    components: [shelf]\n  b:\n    product: X\n    components: [reader]\n", "apps 'a' and 'b' both build the product 'X'"),
        ("  a:\n    product: Shelf\n    components: [reader]\n", "product 'Shelf' of app 'a' has the name of a target or package of the workspace"),
        ("  Big_App:\n    components: [shelf]\n", "app name 'Big_App' is not lower kebab case"),
        ("  a:\n    components: [shelf]\n    missing:\n      shelf: not-in-app\n", "'shelf' is in app 'a' (line"),
        (
            "  a:\n    components: [shelf]\n    missing:\n      reader: elsewhere\n",
            "apps.a.missing.reader is 'elsewhere', neither 'not-in-app' nor a web address"
        ),
        ("  a:\n    components: [shelf]\n    missing:\n      catalog: not-in-app\n", "'catalog' under apps.a.missing is no feature component"),
        (
            "  a:\n    components: [shelf]\n    setting-files:\n      shelf.layout: App/none.json\n",
            "apps.a.setting-files.shelf.layout 'App/none.json' is no file"
        ),
        ("  a:\n    components: [shelf]\n    colour: blue\n", "unknown key 'colour' in app 'a'"),
    ])
    func badAppsAreConfigurationErrorsAndChangeNothing(apps: String, expected: String) throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps(apps)
        try scratch.commitAsNewRepository()
        let before = try state(scratch)
        for command in [["sync"], ["list", "--apps"], ["check-layers"]] {
            let result = try ToolProcess.run(command + ["--root", scratch.root.path])
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.error.contains("components.yaml:"), "\(result.error)")
            #expect(result.error.contains(expected), "\(result.error)")
        }
        #expect(try state(scratch) == before)
    }

    @Test func anAppWhoseComponentsAnswerNoRouteOfTheStartIsReportedWhereTheStartIsSet() throws {
        let scratch = try twoApps()
        try scratch.replace(in: "components.yaml", "  scheme: lib ", with: "  start: lib://book/7?page=2\n  scheme: lib ")
        let found = try tool(scratch, "check-layers")
        #expect(found.status == 1)
        let lines = found.output.split(separator: "\n").filter { $0.contains("[start-route]") }
        #expect(
            lines == [
                "components.yaml:5:10: error: app 'shelf-only' opens workspace.start 'lib://book/7?page=2' first, but none of its components has "
                    + "a route that matches it. Fix: add the component whose route it is to the app's components, or set workspace.start to a route "
                    + "of the app [start-route]"
            ], "\(found.output)")
        try scratch.replace(in: "components.yaml", "  start: lib://book/7?page=2\n", with: "  start: lib://book/seven\n")
        #expect(try tool(scratch, "check-layers").output.split(separator: "\n").filter { $0.contains("[start-route]") }.count == 2, "no int, no route")
    }

    @Test func theClosedAppCheckFindsEveryUseOfALeftOutProviderAtItsPlace() throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps("  shelf-only:\n    components: [shelf]\n")
        #expect(try tool(scratch, "check-layers").status == 0, "the clean fixture is silent")

        // A typed route of the reader's interface, and a service of it resolved.
        let shelf = "Packages/Business/Shelf/Sources/Shelf/"
        try scratch.write(shelf + "Links.swift", "import ReaderInterface\n\nlet firstBook = ReaderRoute.Book(id: .init(1))\n")
        try scratch.write(
            shelf + "Bookmarks.swift",
            "import ReaderInterface\n\nfunc lastPage(_ services: Services) throws {\n    _ = try services.resolve((any ReaderService).self)\n}\n")
        // Uses that are none: a comment, a string, a type of the same name elsewhere, a parameter type.
        try scratch.write(
            shelf + "NotUses.swift", "// ReaderRoute.Book\nlet text = \"ReaderRoute.Book\"\nfunc keep(_ service: any ReaderService) {}\nstruct Book {}\n")
        let found = try tool(scratch, "check-layers")
        #expect(found.status == 1)
        let lines = found.output.split(separator: "\n").filter { $0.contains("[closed-app]") }
        #expect(lines.count == 2, "\(found.output)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(shelf)Links.swift:3:17: error: app 'shelf-only' contains 'shelf', which opens ReaderRoute.Book (reader-interface) here, "
                        + "but its provider 'reader' is not in the app")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("\(shelf)Bookmarks.swift:4:35: error: app 'shelf-only' contains 'shelf', which resolves the service ReaderService")
            }, "\(lines)")
        #expect(found.output.contains("declare what happens instead under its 'missing:' ('reader: not-in-app', or a web address)"))

        // The shell is in every app.
        try scratch.write("App/Shell/Start.swift", "import ReaderInterface\n\nlet start = ReaderRoute.Book.pattern\n")
        #expect(
            try tool(scratch, "check-layers").output.contains(
                "App/Shell/Start.swift:3:13: error: app 'shelf-only' contains the shell, which opens ReaderRoute.Book"))

        // Declaring what happens instead, or adding the provider, silences it.
        try scratch.replace(in: "components.yaml", "    components: [shelf]\n", with: "    components: [shelf]\n    missing:\n      reader: not-in-app\n")
        #expect(try !tool(scratch, "check-layers").output.contains("[closed-app]"))
        try scratch.replace(
            in: "components.yaml", "    components: [shelf]\n    missing:\n      reader: not-in-app\n", with: "    components: [shelf, reader]\n")
        #expect(try !tool(scratch, "check-layers").output.contains("[closed-app]"))
    }

    @Test func listGraphAndStatusKnowApps() throws {
        let scratch = try twoApps()
        let apps = try tool(scratch, "list", "--apps", "--format", "json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(apps.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["shelf-only", "full"])
        #expect(rows.first?["product"] as? String == "ShelfOnly")
        #expect(rows.first?["missing"] as? [String: String] == ["reader": "not-in-app"])
        let linked = Set(try #require(rows.first?["linked"] as? [String]))
        #expect(linked.contains("shelf") && linked.contains("reader-interface") && linked.contains("routing"))
        #expect(!linked.contains("reader"))

        let listed = try tool(scratch, "list", "--app", "shelf-only").output
        #expect(listed.contains("\nshelf ") && !listed.contains("\nreader "))
        let all = try tool(scratch, "list", "--format", "json").output
        let components = try #require(try JSONSerialization.jsonObject(with: Data(all.utf8)) as? [[String: Any]])
        #expect(components.first { $0["name"] as? String == "reader" }?["apps"] as? [String] == ["full"])
        #expect(components.first { $0["name"] as? String == "shelf" }?["apps"] as? [String] == ["shelf-only", "full"])
        let graph = try tool(scratch, "graph", "--app", "shelf-only").output
        #expect(graph.contains("\"shelf\"") && !graph.contains("\"reader\" ["))
        let status = try tool(scratch, "status", "--app", "shelf-only").output
        #expect(status.contains("APPS") && status.contains("shelf-only,full") && !status.contains("\nreader "))
        let unknown = try tool(scratch, "graph", "--app", "shelf-olny")
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("Unknown app 'shelf-olny'. Did you mean 'shelf-only'?"))
    }

    @Test func buildAndTestTakeAnAppAndRunRefusesWhatItCannotRun() throws {
        let scratch = try twoApps()
        let swift = try scratch.fakeSwift(failing: "never")
        let built = try ToolProcess.run(["build", "--app", "full", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(built.status == 0, "\(built.output)")
        #expect(try scratch.read(".build/componentctl-logs/app-full-build.log").hasPrefix("$ swift build --product Library -c debug"))
        let tested = try ToolProcess.run(["test", "--app", "shelf-only", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(tested.status == 0, "\(tested.output)")
        #expect(
            try scratch.read(".build/componentctl-logs/app-shelf-only-test.log").hasPrefix(
                "$ COMPONENTCTL_APP=shelf-only COMPONENTCTL_APP_PRODUCT=ShelfOnly swift test -c debug"))
        #expect(try tool(scratch, "build", "--app", "ful").error.contains("Unknown app 'ful'. Did you mean 'full'?"))
        #expect(try tool(scratch, "build", "--app", "full", "shelf").status == 2)
        let before = try state(scratch)
        for (arguments, message) in [
            (["run", "--focus", "shelv"], "Unknown component 'shelv'. Did you mean 'shelf'?"),
            (["run", "--focus", "reader-interface"], "'reader-interface' is an interface: a focused app is made around a business feature"),
            (["run", "--focus", "catalog"], "'catalog' is in layer core"),
            (["run", "--app", "nope"], "Unknown app 'nope'."),
            (["run", "--app", "full", "--focus", "shelf"], "Give --app NAME or --focus COMPONENT, not both."),
        ] {
            let result = try ToolProcess.run(arguments + ["--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains(message), "\(result.error)")
        }
        #expect(try state(scratch) == before)
    }

    @Test func aFocusedAppHoldsTheComponentWhatItsServicesComeFromAndNothingElse() throws {
        let scratch = try twoApps()
        try scratch.write(
            "Packages/Business/Shelf/Sources/Shelf/Bookmarks.swift",
            "import ReaderInterface\n\nfunc lastPage(_ services: Services) throws {\n    _ = try services.resolve((any ReaderService).self)\n}\n")
        let swift = try scratch.fakeSwift(failing: "never")
        // The fake swift builds nothing, so the run fails at starting the app; the focus package is written before.
        let result = try ToolProcess.run(["run", "--focus", "shelf", "--root", scratch.root.path], environment: ["COMPONENTCTL_SWIFT": swift])
        #expect(result.error.contains("Focused app of shelf: shelf, reader"), "\(result.error)")
        let folder = ".build/componentctl/focus-shelf"
        let manifest = try scratch.read(folder + "/Package.swift")
        #expect(manifest.contains(".package(path: \"\(scratch.root.path)\"),"))
        #expect(manifest.contains(".executableTarget(name: \"ShelfFocus\", dependencies: [.product(name: \"Shell\", package: \"library\")"))
        let wiring = try scratch.read(folder + "/Sources/ShelfFocus/GeneratedApp.swift")
        #expect(wiring.contains("start: \"lib://shelf/list\",\n"), "it starts at its component's first route")
        #expect(!wiring.contains("AbsentFeature(component: \"reader\""))
    }

    /// On a copy of the live workspace (the scaffold builds on its router and screen-kit), asserting only
    /// what holds for any workspace with an app: names are chosen free.
    @Test func newInAnAppThenRemoveLeavesTheWorkspaceAsItWas() throws {
        let scratch = try Scratch.sampleRepository()
        let workspace = try scratch.load()
        guard let app = workspace.apps.first else { return }
        let existing = Set(workspace.components.map(\.name))
        let name = try #require(["Wishlist", "Coupons", "Loyalty", "Giftcards"].first { !existing.contains($0.lowercased()) })
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "synced", "--allow-empty")
        let before = try state(scratch)
        let created = try tool(scratch, "new", name, "--layer", "business", "--app", app.name)
        #expect(created.status == 0, "\(created.error)")
        #expect(try scratch.load().app(named: app.name).componentNames.last == name.lowercased())
        #expect(try scratch.read("\(app.folder)/GeneratedApp.swift").contains("\(name)Module(),"))
        #expect(try tool(scratch, "sync", "--check").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "new")
        let removed = try tool(scratch, "remove", name.lowercased(), name.lowercased() + "-interface")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output.contains("The app \(app.name) no longer contains them."))
        #expect(try state(scratch) == before)
    }

    @Test func theWorkspaceStartIsEveryAppsFirstScreenUntilTheComponentOwningItsRouteIsRemoved() throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps("  full:\n    components: [shelf, reader]\n  shelf-only:\n    components: [shelf]\n")
        try scratch.replace(in: "components.yaml", "  scheme: lib ", with: "  start: web://book/1\n  scheme: lib ")
        try scratch.commitAsNewRepository()
        let refused = try tool(scratch, "sync")
        #expect(refused.status == 2)
        #expect(refused.error.contains("workspace.start 'web://book/1' is no URL of the workspace's scheme 'lib'"), "\(refused.error)")
        // A start may carry the screen's arguments: the route is matched by the URL's path.
        try scratch.replace(in: "components.yaml", "start: web://book/1", with: "start: lib://book/1?page=2")
        #expect(try tool(scratch, "sync").status == 0)
        for app in ["full", "shelf-only"] {
            #expect(try scratch.read("App/\(app)/GeneratedApp.swift").contains("            start: \"lib://book/1?page=2\",\n"), "\(app)")
        }
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "apps")
        // Removing the shelf leaves the start: the route is the reader's (its interface declares it).
        try scratch.git("rm", "-q", "Tests/AppTests/AppTests.swift")
        try scratch.git("commit", "-qm", "no root test")
        #expect(try tool(scratch, "remove", "shelf").status == 0)
        #expect(try scratch.read("components.yaml").contains("  start: lib://book/1?page=2\n"))
        try scratch.git("commit", "-qam", "shelf removed")
        let removed = try tool(scratch, "remove", "reader")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output.contains("workspace.start named its route lib://book/1?page=2: the apps now start at a list of their routes"))
        #expect(try !scratch.read("components.yaml").contains("start:"))
        #expect(try !scratch.read("App/full/GeneratedApp.swift").contains("start:"))
        #expect(try tool(scratch, "sync", "--check").status == 0)
    }

    @Test func removeTakesAComponentOutOfEveryAppAndLeavesAnEmptiedOneTheShellAlone() throws {
        let scratch = try Scratch.fixture()
        try scratch.declareApps("  shelf-only:\n    components: [shelf]\n    missing:\n      reader: not-in-app\n  reading:\n    components:\n      - reader\n")
        try scratch.commitAsNewRepository()
        #expect(try tool(scratch, "sync").status == 0)
        try scratch.git("add", "-A")
        try scratch.git("commit", "-qm", "apps")
        let removed = try tool(scratch, "remove", "reader")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output.contains("The app reading no longer contains it."), "\(removed.output)")
        #expect(removed.output.contains("The `missing:` of shelf-only named it and no longer does: such links now say \"Page not found\"."))
        #expect(try scratch.read("components.yaml").hasSuffix("apps:\n  shelf-only:\n    components: [shelf]\n  reading:\n    components:\n"))
        #expect(try tool(scratch, "sync", "--check").status == 0)
        #expect(try tool(scratch, "check-layers").status == 0)
        #expect(try scratch.read("App/reading/GeneratedApp.swift").contains("modules: {\n                [\n                ]\n            },"))
        try scratch.git("add", "-A")
        // The fixture's root test of the shelf goes first, as a team's would.
        try scratch.git("rm", "-q", "Tests/AppTests/AppTests.swift")
        try scratch.git("commit", "-qm", "reader removed")
        let last = try tool(scratch, "remove", "shelf")
        #expect(last.status == 0, "\(last.error)")
        #expect(try scratch.read("components.yaml").contains("  shelf-only:\n    components: []\n"))
        // Empty dictionaries are written as Swift reads them.
        #expect(try scratch.read("App/shelf-only/GeneratedApp.swift").contains("            routes: [:])\n"))
        #expect(try tool(scratch, "sync", "--check").status == 0)
        #expect(try tool(scratch, "check-layers").status == 0)
    }
}
