/// A SARIF 2.1.0 log of findings (the OASIS static-analysis interchange format GitHub code scanning reads).
struct SARIFLog {
    let diagnostics: [Diagnostic]

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
        let ruleIDs = Array(Set(diagnostics.map(\.rule)).union(RuleCatalog.descriptions.keys)).sorted()
        let rules = ruleIDs.map { Rule(id: $0, shortDescription: Message(text: RuleCatalog.descriptions[$0] ?? $0)) }
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
