import Foundation

/// How findings are printed.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// `path:line:col: error: message. Fix: ... [rule]` lines and a summary.
    case text
    /// A JSON object with the findings and a summary.
    case json
    /// A SARIF 2.1.0 log, for code-scanning dashboards.
    case sarif
    /// GitHub Actions workflow annotations.
    case github
}

/// Renders diagnostics in a ``ReportFormat``.
public struct DiagnosticReport: Sendable {
    /// The findings, sorted.
    public var diagnostics: [Diagnostic]
    /// Baseline problems (stale entries), reported as errors.
    public var baselineProblems: [String]
    /// How many components were checked.
    public var componentCount: Int
    /// How many Swift files were read.
    public var fileCount: Int

    /// Creates a report.
    public init(diagnostics: [Diagnostic], baselineProblems: [String] = [], componentCount: Int, fileCount: Int) {
        self.diagnostics = diagnostics
        self.baselineProblems = baselineProblems
        self.componentCount = componentCount
        self.fileCount = fileCount
    }

    /// The number of errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// The number of warnings.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// The text of the report in `format`.
    public func render(_ format: ReportFormat) throws -> String {
        switch format {
        case .text: return text()
        case .json: return try json()
        case .sarif: return try SARIFLog(diagnostics: diagnostics).render()
        case .github: return github()
        }
    }

    private func text() -> String {
        var lines = diagnostics.map(\.text)
        lines += baselineProblems.map { "error: \($0)" }
        let scope = "\(componentCount) component\(componentCount == 1 ? "" : "s"), \(fileCount) Swift file\(fileCount == 1 ? "" : "s")"
        if diagnostics.isEmpty && baselineProblems.isEmpty {
            lines.append("check-layers: clean (\(scope))")
        } else {
            lines.append(
                "check-layers: \(errorCount) error\(errorCount == 1 ? "" : "s"), \(warningCount) warning\(warningCount == 1 ? "" : "s")"
                    + (baselineProblems.isEmpty ? "" : ", \(baselineProblems.count) stale baseline entr\(baselineProblems.count == 1 ? "y" : "ies")")
                    + " (\(scope))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func json() throws -> String {
        struct Output: Encodable {
            var findings: [Diagnostic]
            var baselineProblems: [String]
            var summary: [String: Int]
        }
        let output = Output(
            findings: diagnostics, baselineProblems: baselineProblems,
            summary: ["errors": errorCount, "warnings": warningCount, "components": componentCount, "files": fileCount])
        return try JSONOutput.string(output)
    }

    private func github() -> String {
        func escape(_ text: String, property: Bool) -> String {
            var text = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
            if property { text = text.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
            return text
        }
        var lines = diagnostics.map { diagnostic in
            let message = diagnostic.message + (diagnostic.fix.map { ". Fix: \($0)" } ?? "")
            return "::\(diagnostic.severity.rawValue) file=\(escape(diagnostic.path, property: true)),line=\(diagnostic.line),col=\(diagnostic.column),"
                + "title=\(escape(diagnostic.rule, property: true))::\(escape(message, property: false))"
        }
        lines += baselineProblems.map { "::error title=baseline::\(escape($0, property: false))" }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }
}

/// Pretty, key-sorted JSON, the same bytes for the same input.
public enum JSONOutput {
    /// `value` as JSON text with a final newline.
    public static func string(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // Foundation pretty-prints an empty array as "[\n\n]".
        return (text.filter { !$0.isWhitespace } == "[]" ? "[]" : text) + "\n"
    }

    /// A one-line account of why decoding failed (Foundation's own description is a nested dump).
    public static func summary(of error: any Error) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "at the top level" : "at '" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context): return "'\(key.stringValue)' is missing \(place(context.codingPath))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "a value of the wrong type \(place(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON" : "a malformed value \(place(context.codingPath))"
        default: return "it cannot be decoded"
        }
    }
}
