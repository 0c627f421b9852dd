/// A position in a text file: 1-based line and column (in characters), and the 0-based byte offset.
public struct SourceLocation: Sendable, Hashable, Comparable, Codable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode characters (code points).
    public var column: Int
    /// 0-based byte offset in the file, counting a BOM if there is one.
    public var offset: Int

    /// Creates a location.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
}

/// A scalar of a YAML document with where it stands in the file.
public struct YAMLScalar: Sendable, Hashable {
    /// How the scalar was written.
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The scalar's value.
    public var value: String
    /// How it was written.
    public var style: Style
    /// Where its span starts: for libyaml that includes a tag, an anchor and the opening quote.
    public var start: SourceLocation
    /// Where its span ends (exclusive).
    public var end: SourceLocation
    /// Whether a tag or an anchor was written before the value.
    public var hasTagOrAnchor: Bool

    /// The bytes of the file the scalar's span covers.
    public var byteRange: Range<Int> { start.offset..<end.offset }
}

/// A node of a YAML document: a scalar, a mapping with ordered keys, or a sequence.
public indirect enum YAMLNode: Sendable {
    /// A scalar.
    case scalar(YAMLScalar)
    /// A mapping, in file order; keys are scalars (the loader refuses duplicates).
    case mapping([(key: YAMLScalar, value: YAMLNode)], start: SourceLocation, flow: Bool)
    /// A sequence, in file order.
    case sequence([YAMLNode], start: SourceLocation, flow: Bool)

    /// Where the node starts.
    public var start: SourceLocation {
        switch self {
        case .scalar(let scalar): scalar.start
        case .mapping(_, let start, _), .sequence(_, let start, _): start
        }
    }

    /// A short name of the node's kind, for error messages.
    public var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

extension YAMLNode {
    /// The items of a sequence; none for another kind of node.
    var sequenceItems: [YAMLNode] {
        if case .sequence(let items, _, _) = self { return items }
        return []
    }
}
