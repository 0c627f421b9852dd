public import Foundation

/// Known findings a team accepts for now, matched by fingerprint (rule, file, message: no line
/// numbers, so edits above a finding do not break the match).
public struct Baseline: Sendable, Codable, Equatable {
    /// One accepted finding.
    public struct Entry: Sendable, Codable, Hashable {
        /// The rule.
        public var rule: String
        /// The file.
        public var path: String
        /// The message.
        public var message: String

        /// The path as findings now write it: a baseline written before kept a target's `./` (`App/./main.swift`).
        var fingerprint: String {
            let plain = path.contains("/.") || path.contains("//") || path.hasPrefix("./") ? LexicalPath.resolve(path).dropFirst() : path[...]
            return "\(rule)|\(plain)|\(message)"
        }
    }

    /// The file format's version.
    public var version = 1
    /// The accepted findings.
    public var findings: [Entry]

    /// A baseline accepting `diagnostics`.
    public init(accepting diagnostics: [Diagnostic]) {
        findings = diagnostics.map { Entry(rule: $0.rule, path: $0.path, message: $0.message) }.sorted { $0.fingerprint < $1.fingerprint }
    }

    /// Reads the baseline at `url`.
    public static func load(_ url: URL) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw WorkspaceError.unreadable(path: url.path, reason: "the baseline file does not exist; create it with --write-baseline")
        }
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw WorkspaceError.unreadable(path: url.path, reason: "it is not a componentctl baseline (\(JSONOutput.summary(of: error)))")
        }
        let known = Baseline(accepting: []).version
        guard baseline.version == known else {
            throw WorkspaceError.unreadable(
                path: url.path,
                reason: "its format version is \(baseline.version), and this componentctl reads version \(known); "
                    + (baseline.version > known
                        ? "a newer componentctl wrote it: use that one (or upgrade this one)"
                        : "write it again with 'check-layers --write-baseline'"))
        }
        return baseline
    }

    /// Writes the baseline atomically.
    public func save(_ url: URL) throws {
        try AtomicFile.write(Data(try JSONOutput.string(self).utf8), to: url)
    }

    /// Splits `diagnostics` into the new ones and the stale entries nothing matched any more.
    public func apply(to diagnostics: [Diagnostic]) -> (new: [Diagnostic], stale: [Entry]) {
        var remaining: [String: Int] = [:]
        for entry in findings { remaining[entry.fingerprint, default: 0] += 1 }
        var new: [Diagnostic] = []
        for diagnostic in diagnostics {
            if let count = remaining[diagnostic.fingerprint], count > 0 {
                remaining[diagnostic.fingerprint] = count - 1
            } else {
                new.append(diagnostic)
            }
        }
        var stale: [Entry] = []
        for entry in findings where (remaining[entry.fingerprint] ?? 0) > 0 {
            remaining[entry.fingerprint, default: 0] -= 1
            stale.append(entry)
        }
        return (new, stale)
    }

    /// This baseline accepting `diagnostics` too.
    public func adding(_ diagnostics: [Diagnostic]) -> Baseline {
        var copy = self
        copy.findings = (findings + Baseline(accepting: diagnostics).findings).sorted { $0.fingerprint < $1.fingerprint }
        return copy
    }

    /// This baseline without `stale` entries: updating only ever shrinks it.
    public func removing(_ stale: [Entry]) -> Baseline {
        var copy = self
        var toRemove = stale
        copy.findings = findings.filter { entry in
            guard let index = toRemove.firstIndex(of: entry) else { return true }
            toRemove.remove(at: index)
            return false
        }
        return copy
    }
}
