/// One finding or configuration problem, at a place in a file, with how to fix it.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// How bad it is.
    public enum Severity: String, Sendable, Codable, Comparable {
        case error, warning

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    /// How bad it is.
    public var severity: Severity
    /// The file, relative to the workspace root.
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// How to fix it.
    public var fix: String?
    /// The rule's id, such as `business-implementation`.
    public var rule: String

    /// Creates a diagnostic.
    public init(severity: Severity = .error, path: String, line: Int, column: Int, message: String, fix: String? = nil, rule: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.fix = fix
        self.rule = rule
    }

    /// Creates a diagnostic at a location.
    public init(severity: Severity = .error, path: String, at location: SourceLocation, message: String, fix: String? = nil, rule: String) {
        self.init(severity: severity, path: path, line: location.line, column: location.column, message: message, fix: fix, rule: rule)
    }

    /// `path:line:col: error: message. Fix: ... [rule]`: clickable in editors and CI logs.
    public var text: String {
        "\(path):\(line):\(column): \(severity.rawValue): \(message)" + (fix.map { ". Fix: \($0)" } ?? "") + " [\(rule)]"
    }

    /// Identifies the finding without its line and column, so a baseline survives edits above it.
    public var fingerprint: String {
        "\(rule)|\(path)|\(message)"
    }
}

extension Diagnostic: Comparable {
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.path, lhs.line, lhs.column, lhs.rule, lhs.message) < (rhs.path, rhs.line, rhs.column, rhs.rule, rhs.message)
    }
}
