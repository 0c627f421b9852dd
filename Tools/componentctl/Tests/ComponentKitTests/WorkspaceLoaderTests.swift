@testable import ComponentKit
import Foundation
import Testing
import TestSupport

@Suite struct WorkspaceLoaderTests {
    /// A scratch workspace with the packages `paths` and the given components.yaml.
    private func workspace(_ yaml: String, packages paths: [String] = ["Packages/Core/Storage"], folder: String = "ws") throws -> Scratch {
        let scratch = try Scratch(named: folder)
        for path in paths { try scratch.package(path, name: (path as NSString).lastPathComponent) }
        try scratch.write("components.yaml", yaml)
        return scratch
    }

    private func errors(_ scratch: Scratch) -> [String] {
        do {
            _ = try scratch.load()
            return []
        } catch let WorkspaceError.invalid(diagnostics) {
            return diagnostics.map(\.text)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    private let header = "layers: [business, core, foundation]\ncomponents:\n"

    @Test func loadsTheFixtureWorkspace() throws {
        let workspace = try Scratch.fixture().load()
        #expect(workspace.components.count == 9)
        #expect(workspace.name == "Library")
        #expect(workspace.scheme == "lib")
        #expect(workspace.rules.layers == ["business", "core", "foundation"])
        #expect(workspace.rules.allow == [AllowedEdge(from: "catalog", to: "cache")])
        #expect(workspace.component(named: "reader-interface")?.kind == .interface)
        #expect(workspace.component(named: "reader")?.interface == "reader-interface")
    }

    @Test func theAppsPrefixDataFolderAndStartComeFromTheWorkspaceSection() throws {
        let declared = try workspace(
            "workspace:\n  name: Field Notes\n  scheme: notes\n  start: notes://list\n  settings-prefix: FIELD\n  data-folder: field-notes\n"
                + header + "  storage:\n    path: Packages/Core/Storage\n    layer: core\n"
        ).load()
        #expect(declared.settingsPrefix == "FIELD")
        #expect(declared.dataFolder == "field-notes")
        #expect(declared.start == "notes://list")
        let derived = try workspace("workspace:\n  name: Field Notes 2\n  scheme: Notes\n" + header).load()
        #expect(derived.settingsPrefix == "FIELD_NOTES_2", "the name's letters and digits, in capitals")
        #expect(derived.dataFolder == "notes", "the scheme, in lower case")
        #expect(derived.start == nil)
        #expect(Workspace.settingsPrefix(forName: "2 Fast!") == "FAST")
        for (key, value) in [("settings-prefix", "NOTES_"), ("data-folder", String(repeating: "d", count: 256)), ("start", "'app://a b'")] {
            let refused = try workspace("workspace:\n  \(key): \(value)\n" + header, folder: "bad-\(key)")
            #expect(errors(refused).first?.contains("workspace.\(key) '\(value.trimmingCharacters(in: ["'"]))' is no") == true, "\(key)")
        }
        #expect(Workspace.settingsPrefix(forName: "—") == "APP")
        let bad = try workspace(
            "workspace:\n  scheme: notes\n  start: http://x\n  settings-prefix: notes\n  data-folder: ../up\n" + header, folder: "bad")
        #expect(
            errors(bad) == [
                "components.yaml:3:10: error: workspace.start 'http://x' is no URL of the workspace's scheme 'notes'. Fix: name the route every app opens first, like 'notes://home', or leave the key out (the apps then start at a list of their routes) [config]",
                "components.yaml:4:20: error: workspace.settings-prefix 'notes' is no environment variable prefix. Fix: write capital letters, digits and underscores, starting with a letter and not ending with '_', like 'NOTES' (the App then reads NOTES_DATA_DIR) [config]",
                "components.yaml:5:16: error: workspace.data-folder '../up' is no folder name. Fix: write at most 255 lowercase letters, digits, '.', '_' and '-', like 'notes' (the App keeps its data in ~/.local/share/notes) [config]",
            ])
    }

    @Test func unknownKeysWrongTypesAndUnknownLayersAreEachReported() throws {
        let scratch = try workspace(
            header + """
                  storage:
                    path: Packages/Core/Storage
                    layer: cor
                    kind: [interface]
                    verison: 1.0.0
                """)
        #expect(
            errors(scratch) == [
                "components.yaml:5:12: error: unknown layer 'cor' for component 'storage'. Fix: use 'core' [config]",
                "components.yaml:6:11: error: storage.kind must be a single value, not a list. Fix: write it on one line after the colon [config]",
                "components.yaml:7:5: error: unknown key 'verison' in component 'storage'. Fix: did you mean 'version'? (the keys of component 'storage' are extends, interface, kind, layer, path, pin, runtime, version) [config]",
            ])
    }

    @Test func duplicateKeysAreReportedWithTheFirstPlace() throws {
        let scratch = try workspace(header + "  storage:\n    path: Packages/Core/Storage\n    layer: core\n    layer: core\n")
        #expect(
            errors(scratch) == [
                "components.yaml:6:5: error: duplicate key 'layer' (first at line 5); keep one of them [config]"
            ])
    }

    @Test func positionsCountCharactersAndSkipTheBOM() throws {
        let yaml = "\u{FEFF}# Überblick — components\n" + header + "  storage: {path: Packages/Core/Storage, layer: core, ünknown: x}\n"
        let scratch = try workspace(yaml)
        #expect(
            errors(scratch) == [
                "components.yaml:4:55: error: unknown key 'ünknown' in component 'storage'. Fix: the keys of component 'storage' are extends, interface, kind, layer, path, pin, runtime, version [config]"
            ])
    }

    @Test func scalarsKnowTheirByteOffsetsForInPlaceEdits() throws {
        let yaml = "\u{FEFF}# ü\n" + header + "  storage:\n    path: Packages/Core/Storage\n    layer: core\n    version: \"1.0.0\"\n"
        let workspace = try self.workspace(yaml).load()
        guard case .mapping(let top, _, _) = workspace.document, case .mapping(let components, _, _)? = top.last?.value,
            case .mapping(let fields, _, _)? = components.first?.value, case .scalar(let version)? = fields.last?.value
        else {
            Issue.record("unexpected document shape")
            return
        }
        let bytes = Array(yaml.utf8)
        #expect(String(decoding: bytes[version.byteRange], as: UTF8.self) == "\"1.0.0\"")
        #expect(version.style == .doubleQuoted)
    }

    @Test func pathsMustExistNotBeSymlinksAndBeUniqueCaseInsensitively() throws {
        let scratch = try workspace(
            header + """
                  storage:
                    path: Packages/Core/Storage
                    layer: core
                  missing:
                    path: Packages/Core/Missing
                    layer: core
                  linked:
                    path: Packages/Core/Linked
                    layer: core
                """, packages: ["Packages/Core/Storage", "Packages/Other/storage"])
        try FileManager.default.createSymbolicLink(
            atPath: scratch.root.appendingPathComponent("Packages/Core/Linked").path,
            withDestinationPath: scratch.root.appendingPathComponent("Packages/Core/Storage").path)
        let found = errors(scratch)
        #expect(found.count == 2)
        #expect(found[0].hasPrefix("components.yaml:7:11: error: path 'Packages/Core/Missing' of 'missing' does not exist"))
        #expect(found[1].hasPrefix("components.yaml:10:11: error: path 'Packages/Core/Linked' of 'linked' goes through the symlink 'Packages/Core/Linked'"))

        let collide = try workspace(
            header + """
                  storage:
                    path: Packages/Core/Storage
                    layer: core
                  storage2:
                    path: Packages/Other/storage
                    layer: core
                """, packages: ["Packages/Core/Storage", "Packages/Other/storage"])
        #expect(errors(collide).contains { $0.contains("folder 'storage' of 'storage2' has the same name as folder 'Storage' of 'storage'") })
    }

    @Test func aComponentNamedLikeTheCheckoutFolderIsRefusedWhereTheRootPackageHasThatName() throws {
        let scratch = try workspace(header + "  main:\n    path: Packages/Core/Main\n    layer: core\n", packages: ["Packages/Core/Main"], folder: "main")
        #expect(errors(scratch).isEmpty, "no root package, so the name is free")
        try scratch.package(".", name: "Main")
        #expect(errors(scratch).contains { $0.contains("has the name of the workspace folder 'main'") })
    }

    @Test func aComponentMayHaveAnyNameOfSafeCharacters() throws {
        let chosen = try workspace(header + "  VPNiOS:\n    path: Packages/Core/Storage\n    layer: core\n")
        #expect(errors(chosen).isEmpty)
        let spaced = try workspace(header + "  \"vpn ios\":\n    path: Packages/Core/Storage\n    layer: core\n")
        #expect(
            errors(spaced) == [
                "components.yaml:3:3: error: component name 'vpn ios' has characters other than letters, digits, '-', '_' and '.', or does not start with a letter or digit. Fix: rename the key, for example to 'storage' [config]"
            ])
        #expect(kebabCase("UserInterface") == "user-interface")
        #expect(kebabCase("HTTPClient") == "http-client")
        #expect(kebabCase("OAuth2Login") == "o-auth2-login")
    }

    @Test func malformedYAMLAndBadVersionsAreErrors() throws {
        #expect(errors(try workspace("layers: [business\ncomponents:\n")).first?.contains("components.yaml:2:") == true)
        let badVersion = try workspace(header + "  storage:\n    path: Packages/Core/Storage\n    layer: core\n    version: 1.4\n")
        #expect(errors(badVersion) == ["components.yaml:6:14: error: storage.version '1.4' is not a semantic version. Fix: write it like 1.4.0 [config]"])
        #expect(errors(try workspace("")).first?.contains("the file is empty") == true)
    }

    @Test func unknownInterfacesAndAllowEntriesSuggestTheClosestName() throws {
        let scratch = try workspace(
            """
            layers: [business, core, foundation]
            rules:
              allow:
                - core/storag -> core/storage
            components:
              storage:
                path: Packages/Core/Storage
                layer: core
                interface: storage-api
            """)
        let found = errors(scratch)
        #expect(found.contains { $0.contains("interface 'storage-api' of 'storage' is not a component") })
        #expect(found.contains { $0.contains("names unknown component 'storag'. Fix: did you mean 'storage'? each side is layer/component") })
    }

    @Test func anAllowEntryWithoutItsLayersSaysTheAcceptedForm() throws {
        let scratch = try workspace(
            """
            layers: [business, core, foundation]
            rules:
              allow:
                - session -> storage
            components:
              storage:
                path: Packages/Core/Storage
                layer: core
              session:
                path: Packages/Core/Storage
                layer: core
            """)
        let found = errors(scratch).filter { $0.contains("rules.allow") }
        #expect(
            found == [
                "components.yaml:4:7: error: rules.allow entry 'session -> storage' names 'session' without its layer. Fix: write 'core/session -> core/storage' (each side is layer/component, like '- core/session -> core/storage') [config]"
            ])
        #expect(!found.joined().contains("did you mean 'session'"), "a hint never repeats the input")
    }

    @Test func semanticVersionsOrderByPrecedence() {
        let sorted = ["1.0.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "0.9.9", "2.0.0", "1.10.0"]
            .compactMap(SemanticVersion.init).sorted().map(\.description)
        #expect(sorted == ["0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.10.0", "2.0.0"])
        for bad in ["1.0", "01.0.0", "1.0.0-", "1.0.0-01", "v1.0.0", "1.0.0+"] { #expect(SemanticVersion(bad) == nil, "\(bad)") }
    }

    /// The names components.yaml checks are tested byte by byte; each test accepts exactly what its regular
    /// expression (the rule the error message states) accepts, on every short string of the characters that matter.
    @Test func eachNameRuleAcceptsWhatItsRegularExpressionAccepts() {
        let rules: [(String, (String) -> Bool)] = [
            ("^[a-z0-9][a-z0-9._-]*$", { NameCharacters.isFolderName($0) }),
            ("^[A-Z]([A-Z0-9_]*[A-Z0-9])?$", NameCharacters.isVariablePrefix),
            ("^[a-z][a-z0-9]*(-[a-z0-9]+)*$", NameCharacters.isKebabCase),
            ("^[A-Za-z_][A-Za-z0-9_]*$", NameCharacters.isIdentifier),
        ]
        let alphabet = ["a", "Z", "0", "_", "-", ".", "é", " "]
        var strings = [""]
        var level = [""]
        for _ in 0..<4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            strings += level
        }
        for (pattern, rule) in rules {
            let disagreements = strings.filter { rule($0) != ($0.range(of: pattern, options: .regularExpression) != nil) }
            #expect(disagreements.isEmpty, "\(pattern): \(disagreements.prefix(5))")
        }
        #expect(NameCharacters.isFolderName(String(repeating: "d", count: 255), maxLength: 255))
        #expect(!NameCharacters.isFolderName(String(repeating: "d", count: 256), maxLength: 255))
    }
}
