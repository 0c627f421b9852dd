/// A semantic version (semver.org 2.0): `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`, ordered by precedence.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int
    /// The patch version.
    public var patch: Int
    /// Dot-separated pre-release identifiers; empty for a release.
    public var prerelease: [String]
    /// Build metadata; ignored for ordering.
    public var build: String?

    /// Parses `text`, or returns nil when it is not a semantic version.
    public init?(_ text: String) {
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") {
            build = String(rest[rest.index(after: plus)...])
            guard let build, !build.isEmpty, build.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Self.isIdentifier) else { return nil }
            rest = rest[..<plus]
        }
        if let dash = rest.firstIndex(of: "-") {
            let identifiers = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard !identifiers.isEmpty, identifiers.allSatisfy(Self.isIdentifier),
                identifiers.allSatisfy({ !Self.isNumeric($0) || $0 == "0" || !$0.hasPrefix("0") })
            else { return nil }
            prerelease = identifiers.map(String.init)
            rest = rest[..<dash]
        } else {
            prerelease = []
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ Self.isNumeric($0) && ($0 == "0" || !$0.hasPrefix("0")) }),
            let major = Int(numbers[0]), let minor = Int(numbers[1]), let patch = Int(numbers[2])
        else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (prerelease.isEmpty ? "" : "-" + prerelease.joined(separator: ".")) + (build.map { "+" + $0 } ?? "")
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        // A pre-release comes before its release; identifiers compare numerically, then as text.
        if lhs.prerelease.isEmpty || rhs.prerelease.isEmpty { return !lhs.prerelease.isEmpty && rhs.prerelease.isEmpty }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            switch (Int(left), Int(right)) {
            case let (l?, r?): return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left < right
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.patch, lhs.prerelease) == (rhs.major, rhs.minor, rhs.patch, rhs.prerelease)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(prerelease)
    }

    private static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    private static func isNumeric(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
