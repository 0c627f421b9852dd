/// A SARIF 2.1.0 log of findings (the OASIS static-analysis interchange format GitHub code scanning reads).
struct SARIFLog {
    let diagnostics: [Diagnostic]

    static let ruleDescriptions: [String: String] = [
        "layer-order": "A component depends on a component of a higher layer.",
        "implementation-to-implementation": "A component depends on an implementation of its own layer where only interfaces are allowed.",
        "unlisted-same-layer": "A same-layer dependency that components.yaml does not allow.",
        "same-layer-forbidden": "A dependency between components of a layer that allows none.",
        "interface-purity": "An interface package depends on an implementation.",
        "cycle": "Components depend on each other in a cycle.",
        "implicit-import": "A source file imports a module its target does not declare.",
        "redundant-dependency": "A declared dependency that nothing imports.",
        "unknown-dependency": "A package dependency that is not a registered component.",
        "unreadable-manifest": "A Package.swift SwiftPM cannot evaluate.",
        "route-collision": "Two components declare routes of one URL shape.",
        "degrade-rule-unmatched": "A degrade rule of a shipped table names no route of the components the table serves.",
        "degrade-table": "A shipped degrade table that is no degrade table, or a rule pattern the router would refuse.",
        "shell-implementation": "The shell every app runs in imports a business implementation.",
        "interface-behaviour": "An interface package holds behaviour instead of declarations only.",
        "route-scheme": "A component's route uses a scheme other than the workspace's.",
    ]

    private struct Log: Encodable {
        var version = "2.1.0"
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case version, schema = "$schema", runs }
    }

    private struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }

    private struct Tool: Encodable { var driver: Driver }

    private struct Driver: Encodable {
        var name = "componentctl"
        var informationUri = "https://github.com/swiftlang/swift-package-manager"
        var rules: [Rule]
    }

    private struct Rule: Encodable {
        var id: String
        var shortDescription: Message
    }

    private struct Message: Encodable { var text: String }

    private struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var partialFingerprints: [String: String]
    }

    private struct Location: Encodable { var physicalLocation: PhysicalLocation }

    private struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    private struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId = "%SRCROOT%"
    }

    private struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    func render() throws -> String {
        let ruleIDs = Array(Set(diagnostics.map(\.rule)).union(Self.ruleDescriptions.keys)).sorted()
        let rules = ruleIDs.map { Rule(id: $0, shortDescription: Message(text: Self.ruleDescriptions[$0] ?? $0)) }
        let results = diagnostics.map { diagnostic in
            Result(
                ruleId: diagnostic.rule, ruleIndex: ruleIDs.firstIndex(of: diagnostic.rule) ?? 0,
                level: diagnostic.severity == .error ? "error" : "warning",
                message: Message(text: diagnostic.message + (diagnostic.fix.map { ". Fix: \($0)" } ?? "")),
                locations: [
                    Location(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: ArtifactLocation(uri: diagnostic.path),
                            region: Region(startLine: diagnostic.line, startColumn: diagnostic.column)))
                ],
                partialFingerprints: ["componentctl/v1": diagnostic.fingerprint])
        }
        return try JSONOutput.string(Log(runs: [Run(tool: Tool(driver: Driver(rules: rules)), results: results)]))
    }
}
