public import Foundation

/// `componentctl check-layers`: every finding, formatted, with the baseline applied.
public enum CheckLayersService {
    /// What the command was asked to do.
    public struct Options: Sendable {
        /// The output format.
        public var format: ReportFormat = .text
        /// Accept the findings of this baseline file.
        public var baseline: URL?
        /// Drop the baseline's stale entries (never adds).
        public var updateBaseline = false
        /// Write a baseline accepting every current finding.
        public var writeBaseline: URL?

        /// Creates options.
        public init(format: ReportFormat = .text, baseline: URL? = nil, updateBaseline: Bool = false, writeBaseline: URL? = nil) {
            self.format = format
            self.baseline = baseline
            self.updateBaseline = updateBaseline
            self.writeBaseline = writeBaseline
        }
    }

    /// Checks `workspace`: exit 0 clean (warnings allowed), 1 errors or stale baseline entries.
    public static func run(_ workspace: Workspace, options: Options) throws -> CommandResult {
        let analysis = try WorkspaceAnalysis.analyze(workspace)
        var findings = LayerChecker(analysis: analysis).findings()
        var messages: [String] = []
        if let url = options.writeBaseline {
            try Baseline(accepting: findings).save(url)
            messages.append("wrote \(findings.count) finding\(findings.count == 1 ? "" : "s") to \(url.path)")
            // Every finding is accepted now: the check that wrote the baseline passes, as the next one will.
            findings = []
        }
        var staleProblems: [String] = []
        let declared = workspace.checks.baseline.map { workspace.root.appendingPathComponent($0) }
        if let url = options.writeBaseline == nil ? options.baseline ?? declared : nil {
            let baseline = try Baseline.load(url)
            let (new, matched) = baseline.apply(to: findings)
            findings = new
            // A rule turned off reports nothing, so its entries match nothing: they wait for the rule to come back.
            let stale = matched.filter { workspace.checks.severity[$0.rule] != .off }
            if options.updateBaseline {
                if !stale.isEmpty {
                    try baseline.removing(stale).save(url)
                    messages.append("removed \(stale.count) stale entr\(stale.count == 1 ? "y" : "ies") from \(url.path)")
                }
            } else {
                staleProblems = stale.map {
                    "baseline entry no longer matches a finding: \($0.path): \($0.message) [\($0.rule)]; run with --update-baseline to drop it"
                }
            }
        } else if options.updateBaseline {
            throw ToolError("--update-baseline needs --baseline FILE", status: .usage)
        }
        let report = DiagnosticReport(
            diagnostics: findings, baselineProblems: staleProblems,
            componentCount: workspace.components.count, fileCount: analysis.fileCount)
        let failed = report.errorCount > 0 || !staleProblems.isEmpty
        return CommandResult(
            output: try report.render(options.format),
            errors: messages.map { $0 + "\n" }.joined(), status: failed ? .findings : .ok)
    }
}
