import ComponentKit
import Foundation
import Testing
import TestSupport

/// `componentctl init` on a repository written here the way teams write theirs (no components.yaml, packages where the
/// team put them, manifests with helpers, SDK imports), through the binary.
@Suite struct InitCommandTests {
    /// A repository of five packages: `App/Feed` and `App/Profile` (features), `Shared/Networking` and `Shared/Cache-Kit`
    /// (the cache uses networking), `Base/Models`; one manifest builds a product name with a helper, one target's
    /// sources sit directly in `Sources/`, one target's name has a `-`; a package inside `.build` and one in an ignored
    /// folder are no components.
    static func teamRepository() throws -> Scratch {
        let scratch = try Scratch(named: "team-app")
        try scratch.write(".gitignore", ".build/\nGenerated/\n")
        try manifest(scratch, "Base/Models", name: "Models", targets: #".target(name: "Models")"#)
        try scratch.write("Base/Models/Sources/Models/Item.swift", "import Foundation\npublic struct Item {}\n")
        try manifest(
            scratch, "Shared/Networking", name: "Networking", dependencies: [#".package(path: "../../Base/Models")"#],
            targets: #".target(name: "Networking", dependencies: ["Models"])"#)
        // The only target, with its sources directly in Sources/: SwiftPM (tools 5.9+) takes the whole folder.
        try scratch.write("Shared/Networking/Sources/Client.swift", "import Models\nimport Network\npublic struct Client {}\n")
        try manifest(
            scratch, "Shared/Cache-Kit", name: "CacheKit", dependencies: [#".package(path: "../Networking")"#],
            targets: #".target(name: "Cache-Kit", dependencies: [.product(name: "Networking", package: "Networking")])"#)
        try scratch.write("Shared/Cache-Kit/Sources/Cache-Kit/Cache.swift", "import Networking\npublic struct Cache {}\n")
        try scratch.write(
            "App/Feed/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            func shared(_ module: String) -> Target.Dependency { .product(name: module, package: module) }
            let package = Package(
                name: "Feed",
                dependencies: [.package(path: "../../Shared/Cache-Kit"), .package(path: "../../Base/Models")],
                targets: [.target(name: "Feed", dependencies: [.product(name: "CacheKit", package: "Cache-Kit"), shared("Models")])]
            )
            """)
        try scratch.write("App/Feed/Sources/Feed/Feed.swift", "import Cache_Kit\nimport Models\nimport SwiftUI\nimport NetworkExtension\n")
        try manifest(
            scratch, "App/Profile", name: "Profile", dependencies: [#".package(path: "../../Base/Models")"#],
            targets: #".target(name: "Profile", dependencies: ["Models"])"#)
        try scratch.write("App/Profile/Sources/Profile/Profile.swift", "import Models\nimport Networking\n")
        try scratch.package(".build/checkouts/Vendored", name: "Vendored")
        try scratch.package("Generated/Made", name: "Made")
        // A folder named like a manifest makes no package.
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("Docs/Package.swift"), withIntermediateDirectories: true)
        try scratch.write("Docs/Package.swift/notes.md", "not a manifest\n")
        try scratch.commitAsNewRepository()
        return scratch
    }

    private static func manifest(_ scratch: Scratch, _ path: String, name: String, dependencies: [String] = [], targets: String) throws {
        try scratch.write(
            path + "/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "\(name)",
                products: [.library(name: "\(name)", targets: [\(targets.components(separatedBy: "name: \"")[1].split(separator: "\"")[0].debugDescription)])],
                dependencies: [\(dependencies.joined(separator: ", "))],
                targets: [\(targets)]
            )
            """)
    }

    private func tool(_ scratch: Scratch, _ arguments: [String]) throws -> ToolProcess.Result {
        try ToolProcess.run(arguments, in: scratch.root)
    }

    @Test func initMakesARepositoryAWorkspaceWhoseCheckPassesAtOnce() throws {
        let scratch = try Self.teamRepository()
        let proposal = try tool(scratch, ["init", "--dry-run"])
        #expect(proposal.status == 0, "\(proposal.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("components.yaml").path), "a dry run writes nothing")
        #expect(proposal.output.contains("layers: [business, core, foundation]"), "\(proposal.output)")

        let written = try tool(scratch, ["init"])
        #expect(written.status == 0, "\(written.error)")
        let workspace = try scratch.load()
        #expect(Set(workspace.components.map(\.path)) == ["App/Feed", "App/Profile", "Shared/Cache-Kit", "Shared/Networking", "Base/Models"])
        #expect(workspace.component(named: "Feed")?.layer == "business")
        #expect(workspace.component(named: "CacheKit")?.layer == "core")
        #expect(workspace.component(named: "Networking")?.layer == "core")
        #expect(workspace.component(named: "Models")?.layer == "foundation")
        #expect(workspace.rules.allow.contains(AllowedEdge(from: "CacheKit", to: "Networking")), "today's core -> core edge is allowed")

        let checked = try tool(scratch, ["check-layers"])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(try scratch.read(".gitignore").hasSuffix("\n.componentctl/\n.pin-*/\n.pack-*/\n"), "componentctl's folders ignored, .build/ once")
        #expect(try scratch.run("/usr/bin/env", ["git", "-C", scratch.root.path, "status", "--porcelain", "--", ".componentctl"]).isEmpty)
        // What was wrong on the day (Profile imports Networking without declaring it) waits in the baseline.
        let baseline = try scratch.read("componentctl-baseline.json")
        #expect(baseline.contains("'Profile' imports Networking"), "\(baseline)")
        #expect(
            !baseline.contains("NetworkExtension") && !baseline.contains("SwiftUI") && !baseline.contains("imports Network,"), "SDK imports are no findings")
        #expect(!baseline.contains("Cache_Kit") && !baseline.contains("Client.swift"), "mangled modules and sources in Sources/ are read as the compiler does")
        #expect(!baseline.contains("Feed/Package.swift"), "the manifest SwiftPM evaluated has its dependencies")
    }

    @Test func eachFindingProvokedAfterInitIsTrue() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init"]).status == 0)
        // A feature importing another feature.
        try scratch.write("App/Feed/Sources/Feed/Profiles.swift", "import Profile\n")
        let feature = try tool(scratch, ["check-layers"])
        #expect(feature.status == 1)
        #expect(feature.output.contains("App/Feed/Sources/Feed/Profiles.swift:1:8: error: 'Feed' imports Profile"), "\(feature.output)")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("App/Feed/Sources/Feed/Profiles.swift"))
        // An SDK import.
        try scratch.write("App/Feed/Sources/Feed/Tips.swift", "import TipKit\nimport FoundationModels\nimport AuthenticationServices\n")
        #expect(try tool(scratch, ["check-layers"]).status == 0)
        // An unused dependency.
        try scratch.replace(in: "App/Profile/Sources/Profile/Profile.swift", "import Models\n", with: "")
        let unused = try tool(scratch, ["check-layers"])
        #expect(unused.output.contains("target 'Profile' declares dependency 'Models' but never imports it"), "\(unused.output)")
    }

    @Test func initAgainAddsNewPackagesKeepsWhatTheTeamEditedAndNamesVanishedOnes() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init"]).status == 0)
        try scratch.replace(in: "components.yaml", "  Profile:\n", with: "  # the team's own note\n  Profile:\n")
        try Self.manifest(
            scratch, "App/Search", name: "Search", dependencies: [#".package(path: "../../Base/Models")"#],
            targets: #".target(name: "Search", dependencies: ["Models"])"#)
        try scratch.write("App/Search/Sources/Search/Search.swift", "import Models\nimport Networking\n")
        // An older package starts using the new one before it is registered.
        try scratch.write("App/Profile/Sources/Profile/Find.swift", "import Search\n")
        let cacheManifest = try scratch.read("Shared/Cache-Kit/Package.swift")
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("Shared/Cache-Kit/Package.swift"))
        // Run inside a component's folder, as any command, it works on the workspace that holds it.
        let again = try ToolProcess.run(["init"], in: scratch.root.appendingPathComponent("App/Profile"))
        #expect(again.status == 0, "\(again.error)")
        #expect(again.error.contains("this folder is in the workspace at"), "\(again.error)")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("App/Profile/components.yaml").path))
        #expect(again.output.contains("1 new component: Search (business)"), "\(again.output)")
        #expect(again.error.contains("'CacheKit' (Shared/Cache-Kit) has no package any more"), "\(again.error)")
        let yaml = try scratch.read("components.yaml")
        #expect(yaml.contains("  # the team's own note\n  Profile:\n"))
        #expect(yaml.contains("  Search:\n    path: App/Search\n    layer: business\n"), "\(yaml)")
        let baseline = try scratch.read("componentctl-baseline.json")
        #expect(baseline.contains("'Search' imports Networking"), "the new package's findings join the baseline")
        #expect(!baseline.contains("imports Search"), "a finding outside the new packages is the team's to read")
        #expect(again.error.contains("outside the new packages are not in the baseline"), "\(again.error)")
        try scratch.write("Shared/Cache-Kit/Package.swift", cacheManifest)
        #expect(try tool(scratch, ["check-layers"]).output.contains("'Profile' imports Search"))
        try scratch.replace(in: "componentctl-baseline.json", "\"version\" : 1", with: "\"version\" : 99")
        let future = try tool(scratch, ["check-layers"])
        #expect(future.status == 2 && future.error.contains("its format version is 99"), "\(future.error)")
    }

    @Test func aLinkedGitignoreIsLeftAsItIs() throws {
        let scratch = try Self.teamRepository()
        let outside = scratch.root.deletingLastPathComponent().appendingPathComponent("shared.gitignore")
        try Data(".build/\n".utf8).write(to: outside)
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent(".gitignore"))
        try FileManager.default.createSymbolicLink(atPath: scratch.root.appendingPathComponent(".gitignore").path, withDestinationPath: outside.path)
        let written = try tool(scratch, ["init"])
        #expect(written.status == 0, "\(written.error)")
        #expect(!written.output.contains("to .gitignore"))
        #expect(try String(contentsOf: outside, encoding: .utf8) == ".build/\n", "a file outside the repository is not init's to change")
    }

    @Test func initAgainFillsAnEmptyFlowSectionAndNamesAFlowStyleItCannotAddTo() throws {
        let scratch = try Self.teamRepository()
        // One layer: no rule names a component, so the section can be emptied.
        #expect(try tool(scratch, ["init", "--one-layer"]).status == 0)
        let written = try scratch.read("components.yaml")
        let head = try #require(written.components(separatedBy: "\ncomponents:").first)
        let layer = try #require(written.split(separator: "\n").first { $0.hasPrefix("    layer: ") }).dropFirst("    layer: ".count)
        try scratch.write("components.yaml", head + "\ncomponents: {}\n")
        let filled = try tool(scratch, ["init"])
        #expect(filled.status == 0, "\(filled.error)")
        #expect(filled.output.hasPrefix("5 new components"), "\(filled.output)")
        #expect(try scratch.read("components.yaml").contains("\ncomponents:\n  # added by 'componentctl init'\n"))
        let checked = try tool(scratch, ["check-layers"])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
        try scratch.write("components.yaml", head + "\ncomponents: {Models: {path: Base/Models, layer: \(layer)}}\n")
        let refused = try tool(scratch, ["init"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("written in flow style") && refused.error.contains("then run the command again"), "\(refused.error)")
        #expect(try scratch.read("components.yaml").hasSuffix("{Models: {path: Base/Models, layer: \(layer)}}\n"), "left as it was")
    }

    @Test func oneLayerPutsEveryComponentInOneLayerThatAllowsAnyEdge() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init", "--one-layer"]).status == 0)
        let workspace = try scratch.load()
        #expect(workspace.rules.layers == ["components"])
        #expect(workspace.rules.sameLayer["components"] == .any)
        #expect(try tool(scratch, ["check-layers"]).status == 0)
    }

    @Test func withoutAComponentsFileTheErrorPointsAtInit() throws {
        let scratch = try Scratch(named: "bare")
        let result = try tool(scratch, ["check-layers"])
        #expect(result.status == 2)
        #expect(result.error.contains("run 'componentctl init'"), "\(result.error)")
    }

    @Test func severitiesPhaseARuleInAndAnUnknownRuleIsNamed() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init"]).status == 0)
        try scratch.write("App/Feed/Sources/Feed/Profiles.swift", "import Networking\n")
        #expect(try tool(scratch, ["check-layers"]).status == 1)
        try scratch.replace(in: "components.yaml", "  # severity:", with: "  severity:\n    implicit-import: warning\n  # old severity:")
        let warned = try tool(scratch, ["check-layers"])
        #expect(warned.status == 0, "\(warned.output)")
        #expect(warned.output.contains("warning: 'Feed' imports Networking"), "\(warned.output)")
        try scratch.replace(in: "components.yaml", "implicit-import: warning", with: "implicit-import: off")
        let off = try tool(scratch, ["check-layers"])
        #expect(off.status == 0 && !off.output.contains("imports Networking"), "\(off.output)")
        try scratch.replace(in: "components.yaml", "implicit-import: off", with: "implicit-imports: off")
        let unknown = try tool(scratch, ["check-layers"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("checks.severity names 'implicit-imports', which is no rule. Fix: did you mean 'implicit-import'?"), "\(unknown.error)")
    }

    @Test func aTeamsOwnSystemModuleIsNoFinding() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init"]).status == 0)
        try scratch.write("App/Feed/Sources/Feed/Vendor.swift", "import CompanySDK\n")
        #expect(try tool(scratch, ["check-layers"]).status == 1)
        try scratch.replace(in: "components.yaml", "  # system-modules: []", with: "  system-modules: [CompanySDK]")
        #expect(try tool(scratch, ["check-layers"]).status == 0)
        // A team's list that also names components' modules hides neither what they provide nor their undeclared imports
        // (Profile imports Networking undeclared: the baseline's finding still matches), and each such entry is named.
        try scratch.replace(in: "components.yaml", "  system-modules: [CompanySDK]", with: "  system-modules: [CompanySDK, Models, Networking]")
        let checked = try tool(scratch, ["check-layers"])
        #expect(checked.status == 1, "\(checked.output)")
        #expect(!checked.output.contains("redundant-dependency") && !checked.output.contains("stale"), "\(checked.output)")
        let named = checked.output.split(separator: "\n").filter { $0.hasSuffix("[system-module-of-component]") }
        #expect(named.count == 2 && named[0].hasPrefix("components.yaml:"), "\(checked.output)")
    }

    @Test func newFollowsTheRepositorysLayoutPlatformsAndNamesAndNeedsNothingOfTheSample() throws {
        let scratch = try Self.teamRepository()
        // Each right after `name:`, where SwiftPM wants it.
        for (feature, next) in [("App/Feed", "    dependencies:"), ("App/Profile", "    products:")] {
            try scratch.replace(in: feature + "/Package.swift", "// swift-tools-version: 6.0", with: "// swift-tools-version: 6.1")
            try scratch.replace(in: feature + "/Package.swift", next, with: "    platforms: [\n        .iOS(.v17), .macOS(.v14),\n    ],\n" + next)
        }
        #expect(try tool(scratch, ["init"]).status == 0)
        try scratch.commitAll("adopted")
        let created = try tool(scratch, ["new", "Bookmarks", "--layer", "business"])
        #expect(created.status == 0, "\(created.error)")
        let manifest = try scratch.read("App/Bookmarks/Package.swift")
        #expect(manifest.hasPrefix("// swift-tools-version: 6.1\n"), "\(manifest)")
        #expect(manifest.contains("    platforms: [.iOS(.v17), .macOS(.v14)],\n"), "\(manifest)")
        #expect(FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("App/BookmarksInterface/Package.swift").path))
        let workspace = try scratch.load()
        #expect(workspace.component(named: "Bookmarks")?.interface == "BookmarksInterface", "named like the repository names its components")
        #expect(try tool(scratch, ["check-layers"]).status == 0)
    }

    @Test func ciGithubWritesAWorkflowThatUsesTheInstalledToolWhereNoneIsVendored() throws {
        let scratch = try Self.teamRepository()
        #expect(try tool(scratch, ["init"]).status == 0)
        let written = try tool(scratch, ["ci", "github"])
        #expect(written.status == 0, "\(written.error)")
        let workflow = try scratch.read(".github/workflows/components.yml")
        #expect(workflow.contains("  command -v componentctl ||"), "the image's componentctl, checked first")
        #expect(workflow.contains("run: componentctl affected --base \"$BASE\" --format github-matrix") || workflow.contains("matrix=$(componentctl affected"))
        #expect(!workflow.contains("Tools/componentctl") && !workflow.contains("upload-artifact"), "nothing to build or pass between jobs")
        #expect(workflow.contains("run: if [ -x scripts/setup.sh ]; then scripts/setup.sh; fi"))
        #expect(workflow.contains("componentctl check-layers --format github"))
        #expect(!workflow.contains("test --integrated"), "no root package, so nothing integrated to test")
        let integrated = try tool(scratch, ["build"])
        #expect(integrated.status == 2 && integrated.error.contains("There is no integrated App to build here"), "\(integrated.error)")
        let lint = try scratch.run("/usr/bin/env", ["actionlint", scratch.root.appendingPathComponent(".github/workflows/components.yml").path])
        #expect(lint.isEmpty, "actionlint: \(lint)")
        #expect(try tool(scratch, ["sync", "--check"]).status == 0)
    }

    @Test func aBaselineFileOfTheTeamsOwnIsNeverOverwritten() throws {
        let scratch = try Self.teamRepository()
        try scratch.write("componentctl-baseline.json", "ours\n")
        let refused = try tool(scratch, ["init"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("componentctl-baseline.json exists, but no components.yaml"), "\(refused.error)")
        #expect(try scratch.read("componentctl-baseline.json") == "ours\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("components.yaml").path))
        // One an init that could not finish left is replaced.
        try scratch.write("componentctl-baseline.json", "{\"version\": 1, \"findings\": []}\n")
        #expect(try tool(scratch, ["init"]).status == 0)
        // --root names the repository wherever the command runs.
        let elsewhere = try Self.teamRepository()
        let run = try ToolProcess.run(["init", "--root", elsewhere.root.path], in: scratch.root.deletingLastPathComponent())
        #expect(run.status == 0, "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: elsewhere.root.appendingPathComponent("components.yaml").path))
    }

    @Test func anAppAnXcodeProjectAssemblesIsRecordedAndAffectedByWhatItLinks() throws {
        let scratch = try Self.teamRepository()
        // Xcode 15 writes a local package as a reference by path and each linked product by name.
        try scratch.write(
            "TeamApp.xcodeproj/project.pbxproj",
            """
            // !$*UTF8*$!
            {
            \t\tA1 /* XCLocalSwiftPackageReference "App/Feed" */ = {
            \t\t\tisa = XCLocalSwiftPackageReference;
            \t\t\trelativePath = App/Feed;
            \t\t};
            \t\tA2 /* Profile */ = {
            \t\t\tisa = XCSwiftPackageProductDependency;
            \t\t\tproductName = Profile;
            \t\t};
            }
            """)
        try scratch.write("TeamApp/AppMain.swift", "import Feed\n")
        try scratch.commitAll("the app's project")
        #expect(try tool(scratch, ["init"]).status == 0)
        let app = try #require(try scratch.load().xcodeApps.first)
        #expect(app.name == "TeamApp" && app.project == "TeamApp.xcodeproj")
        #expect(app.paths == ["TeamApp.xcodeproj", "TeamApp"])
        #expect(Set(app.components) == ["Feed", "Profile"])
        try scratch.commitAll("adopted")

        try scratch.write("Base/Models/Sources/Models/More.swift", "public let more = 1\n")
        try scratch.commitAll("models changes")
        let dependent = try tool(scratch, ["affected", "--base", "HEAD~1", "--format", "json"])
        #expect(dependent.output.contains(#""name" : "TeamApp""#) && dependent.output.contains(#""reason" : "dependent""#), "\(dependent.output)")
        try scratch.write("TeamApp/AppMain.swift", "import Feed\nimport Profile\n")
        try scratch.commitAll("the app changes")
        let changed = try tool(scratch, ["affected", "--base", "HEAD~1"])
        #expect(changed.output.contains("TeamApp") && changed.output.contains("changed"), "\(changed.output)")
        #expect(!changed.output.contains("Feed "), "its components are not changed by it: \(changed.output)")
    }

    /// A project as Xcode 16 writes it: a main group listing its targets' folders (one through a group that has no folder of
    /// its own, one by the project's folder, one holding components), a file git ignores, a file outside its group's folder,
    /// the local package it links, and the products it builds; each object on one line or several, as Xcode writes them.
    static let projectWithSeveralTargets = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tobjectVersion = 77;
        \tobjects = {
        \t\tM0 = {isa = PBXGroup; children = (F1, F2, G1, G2, V1, P1, R1, X1, A0); sourceTree = "<group>"; };
        \t\tF1 /* app.yml */ = {isa = PBXFileReference; path = app.yml; sourceTree = "<group>"; };
        \t\tF2 /* Secrets.xcconfig */ = {isa = PBXFileReference; path = Secrets.xcconfig; sourceTree = "<group>"; };
        \t\tG1 /* TeamApp */ = {isa = PBXGroup; children = (S1, S2); path = TeamApp; sourceTree = "<group>"; };
        \t\tS1 /* Thing.swift */ = {isa = PBXFileReference; path = ../Shared/Thing.swift; sourceTree = "<group>"; };
        \t\tS2 /* AppMain.swift */ = {isa = PBXFileReference; path = AppMain.swift; sourceTree = "<group>"; };
        \t\tA0 /* App */ = {isa = PBXGroup; children = (); path = App; sourceTree = "<group>"; };
        \t\tG2 /* NotificationExtension */ = {isa = PBXFileSystemSynchronizedRootGroup; path = NotificationExtension; sourceTree = "<group>"; };
        \t\tV1 /* Targets */ = {isa = PBXGroup; children = (G3, G4); name = Targets; sourceTree = "<group>"; };
        \t\tG3 /* Widgets */ = {isa = PBXGroup; children = (); path = Widgets; sourceTree = "<group>"; };
        \t\tG4 /* Shared */ = {isa = PBXGroup; children = (); path = Support/Shared; sourceTree = SOURCE_ROOT; };
        \t\tP1 /* Packages */ = {isa = PBXGroup; children = (L1); name = Packages; sourceTree = "<group>"; };
        \t\tL1 /* Feed */ = {isa = PBXFileReference; lastKnownFileType = wrapper; path = App/Feed; sourceTree = "<group>"; };
        \t\tR1 /* Products */ = {isa = PBXGroup; children = (B1); name = Products; sourceTree = "<group>"; };
        \t\tB1 /* TeamApp.app */ = {isa = PBXFileReference; path = TeamApp.app; sourceTree = BUILT_PRODUCTS_DIR; };
        \t\tX1 /* Outside */ = {isa = PBXGroup; children = (); path = ../elsewhere; sourceTree = "<group>"; };
        \t\tA1 /* XCLocalSwiftPackageReference "App/Feed" */ = {
        \t\t\tisa = XCLocalSwiftPackageReference;
        \t\t\trelativePath = App/Feed;
        \t\t};
        \t\tJ1 /* Project object */ = {isa = PBXProject; mainGroup = M0; };
        \t};
        \trootObject = J1;
        }
        """

    @Test func anXcodeAppsFilesAreWhatItsProjectListsAndTheSpecThatMakesIt() throws {
        let scratch = try Self.teamRepository()
        try scratch.write("TeamApp.xcodeproj/project.pbxproj", Self.projectWithSeveralTargets)
        for file in ["TeamApp/AppMain.swift", "NotificationExtension/Service.swift", "Widgets/Widget.swift", "Support/Shared/Log.swift", "project.yml"] {
            try scratch.write(file, "// \(file)\n")
        }
        try scratch.write("app.yml", "name: TeamApp\n")
        try scratch.write("Shared/Thing.swift", "// shared\n")
        try scratch.write("App/README.md", "# The app's packages\n")
        try scratch.write(".gitignore", ".build/\nGenerated/\nSecrets.xcconfig\n")
        try scratch.write("Secrets.xcconfig", "KEY = made by a script\n")
        try scratch.commitAll("the app's project")
        #expect(try tool(scratch, ["init"]).status == 0)
        let app = try #require(try scratch.load().xcodeApps.first)
        #expect(
            app.paths == [
                "TeamApp.xcodeproj", "TeamApp", "App", "NotificationExtension", "Shared/Thing.swift", "Support/Shared", "Widgets", "app.yml", "project.yml",
            ])
        #expect(app.components == ["Feed"])
        try scratch.commitAll("adopted")
        for file in [
            "NotificationExtension/Service.swift", "Widgets/Widget.swift", "Support/Shared/Log.swift", "project.yml", "Shared/Thing.swift", "App/README.md",
        ] {
            try scratch.write(file, "// changed\n")
            try scratch.commitAll("\(file) changes")
            let affected = try tool(scratch, ["affected", "--base", "HEAD~1", "--format", "json"])
            #expect(
                affected.output.contains(#""path" : "TeamApp.xcodeproj""#) && affected.output.contains(#""reason" : "changed""#), "\(file): \(affected.output)")
            #expect(!affected.output.contains(#""name" : "Feed""#), "\(file): \(affected.output)")
        }
        // A component in a folder of its paths is no file of its own: Profile, which it does not link, leaves it as it is.
        try scratch.write("App/Profile/Sources/Profile/More.swift", "public let more = 1\n")
        try scratch.commitAll("profile changes")
        let unlinked = try tool(scratch, ["affected", "--base", "HEAD~1", "--format", "json"])
        #expect(!unlinked.output.contains("TeamApp"), "\(unlinked.output)")
        try scratch.write("App/Profile/Sources/Profile/More.swift", "public let more = 2\n")
        #expect(try !tool(scratch, ["affected", "--base", "HEAD", "--uncommitted"]).output.contains("TeamApp"))
        // It is an app to list, graph and status, which name it and take it for --app; not one to build.
        let apps = try tool(scratch, ["list", "--apps"])
        #expect(apps.output.contains("TeamApp") && apps.output.contains("TeamApp.xcodeproj"), "\(apps.output)")
        for command in [["list", "--app", "TeamApp"], ["graph", "--app", "TeamApp"], ["status", "--app", "TeamApp"]] {
            let shown = try tool(scratch, command)
            #expect(shown.status == 0 && shown.output.contains("Feed") && !shown.output.contains("Profile"), "\(command): \(shown.output)\(shown.error)")
        }
        let listed = try tool(scratch, ["list"])
        #expect(listed.output.split(separator: "\n").contains { $0.hasPrefix("Feed ") && $0.contains("TeamApp") }, "\(listed.output)")
        let unknown = try tool(scratch, ["list", "--app", "TeamAp"])
        #expect(unknown.status == 2 && unknown.error.contains("Did you mean 'TeamApp'?"), "\(unknown.error)")
        let built = try tool(scratch, ["build", "--app", "TeamApp"])
        #expect(built.status == 2 && built.error.contains("an app an Xcode project assembles"), "\(built.error)")
    }

    @Test func cFamilyTargetsMacrosPluginsAndToolsAreNeverCalledUnused() throws {
        let scratch = try Self.teamRepository()
        try scratch.write(
            "Shared/Tooling/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            import CompilerPluginSupport
            let package = Package(
                name: "Tooling",
                products: [.library(name: "Tooling", targets: ["Tooling"]), .plugin(name: "Lint", targets: ["Lint"])],
                dependencies: [.package(path: "../../Base/Models")],
                targets: [
                    .target(name: "Legacy", dependencies: ["Models"]),
                    .macro(name: "ToolingMacros", dependencies: []),
                    .target(name: "Tooling", dependencies: ["Legacy", "ToolingMacros"]),
                    .executableTarget(name: "LintTool"),
                    .plugin(name: "Lint", capability: .buildTool(), dependencies: ["LintTool"]),
                ]
            )
            """)
        // An Objective-C target whose .m file uses Models (its imports are not read), a macro used through #externalMacro.
        try scratch.write("Shared/Tooling/Sources/Legacy/Legacy.m", "@import Models;\n")
        try scratch.write("Shared/Tooling/Sources/Legacy/include/Legacy.h", "void legacy(void);\n")
        try scratch.write("Shared/Tooling/Sources/ToolingMacros/Macros.swift", "public struct Stringify {}\n")
        try scratch.write(
            "Shared/Tooling/Sources/Tooling/Tooling.swift",
            "import Legacy\n@freestanding(expression) public macro stringify(_ value: Int) -> String = #externalMacro(module: \"ToolingMacros\", type: \"Stringify\")\n"
        )
        try scratch.write("Shared/Tooling/Sources/LintTool/main.swift", "print(\"lint\")\n")
        try scratch.write("Shared/Tooling/Plugins/Lint/Lint.swift", "import PackagePlugin\n")
        // A package that uses only the other's build plugin.
        try scratch.replace(
            in: "App/Profile/Package.swift", "dependencies: [.package(path: \"../../Base/Models\")],",
            with: "dependencies: [.package(path: \"../../Base/Models\"), .package(path: \"../../Shared/Tooling\")],")
        try scratch.replace(
            in: "App/Profile/Package.swift", #".target(name: "Profile", dependencies: ["Models"])"#,
            with: #".target(name: "Profile", dependencies: ["Models"], plugins: [.plugin(name: "Lint", package: "Tooling")])"#)
        try scratch.commitAll("tooling")
        #expect(try tool(scratch, ["init"]).status == 0)
        let baseline = try scratch.read("componentctl-baseline.json")
        for word in ["ToolingMacros", "LintTool", "'Legacy' declares", "Shared/Tooling", "is used by no target"] {
            #expect(!baseline.contains(word), "\(word): \(baseline)")
        }
    }

    @Test func aDependencyABuildPluginMayUseOrAPackageOfCommandPluginsIsNeverCalledUnused() throws {
        let scratch = try Self.teamRepository()
        try scratch.write(
            "Shared/Generators/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "Generators",
                products: [.plugin(name: "Generate", targets: ["Generate"])],
                targets: [.plugin(name: "Generate", capability: .command(intent: .custom(verb: "generate", description: "writes code")))]
            )
            """)
        try scratch.write("Shared/Generators/Plugins/Generate/Generate.swift", "import PackagePlugin\n")
        // Generators for its command plugin, a remote package that may be there for the same, Cache-Kit for nothing; a build
        // plugin writes the code that uses Networking.
        try scratch.write(
            "App/Profile/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "Profile",
                dependencies: [
                    .package(path: "../../Base/Models"), .package(path: "../../Shared/Generators"), .package(path: "../../Shared/Networking"),
                    .package(path: "../../Shared/Cache-Kit"), .package(url: "https://example.com/team/formatting.git", from: "1.0.0"),
                ],
                targets: [
                    .target(name: "Profile", dependencies: ["Models", "Networking"], plugins: ["Client"]),
                    .plugin(name: "Client", capability: .buildTool()),
                ]
            )
            """)
        try scratch.write("App/Profile/Plugins/Client/Client.swift", "import PackagePlugin\n")
        try scratch.write("App/Profile/Sources/Profile/Profile.swift", "import Models\n")
        try scratch.commitAll("generated code")
        #expect(try tool(scratch, ["init"]).status == 0)
        let baseline = try scratch.read("componentctl-baseline.json")
        for word in ["'Networking' but never", "Shared/Generators", "formatting.git"] {
            #expect(!baseline.contains(word), "\(word): \(baseline)")
        }
        // A package of no plugins that no target uses is still found.
        #expect(baseline.contains("package dependency '../../Shared/Cache-Kit' is used by no target"), "\(baseline)")
    }

    @Test func aFindingInATargetAtItsPackagesFolderNamesItsFileAsWritten() throws {
        let scratch = try Self.teamRepository()
        try scratch.write(
            "Tools/Lone/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "Lone", targets: [.executableTarget(name: "lone", path: "./")])
            """)
        try scratch.write("Tools/Lone/main.swift", "import Models\n")
        try scratch.commitAll("a tool whose sources are its package's folder")
        #expect(try tool(scratch, ["init"]).status == 0)
        let baseline = try scratch.read("componentctl-baseline.json")
        #expect(baseline.contains("\"Tools/Lone/main.swift\""), "\(baseline)")
        #expect(!baseline.contains("/./") && !baseline.contains("//"), "\(baseline)")
        // A baseline an earlier componentctl wrote, with the `./`, still accepts the finding.
        try scratch.write("componentctl-baseline.json", baseline.replacingOccurrences(of: "Tools/Lone/main.swift", with: "Tools/Lone/.//main.swift"))
        let checked = try tool(scratch, ["check-layers"])
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
    }
}
