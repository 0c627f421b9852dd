import CYAML

/// A YAML problem at a place in a file.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as shown to the user.
    public var path: String
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong.
    public var message: String

    public var description: String { "\(path):\(location.line):\(location.column): error: \(message)" }
}

extension YAMLError: ComponentctlError {
    /// A file that is not the YAML it should be is the user's to fix.
    public var exitStatus: ExitStatus { .usage }
}

/// Loads one YAML document through libyaml's event API, keeping the position of every scalar.
///
/// libyaml's marks count characters, not bytes, and skip a BOM; ``TextPositions`` turns them into
/// byte offsets, so callers can edit the file in place. libyaml does not report duplicate keys:
/// the loader does.
public enum YAMLLoader {
    /// The document in `bytes`, or nil when it is empty.
    public static func load(_ bytes: [UInt8], path: String) throws(YAMLError) -> YAMLNode? {
        let positions = TextPositions(bytes)
        // libyaml asserts on a null input pointer, which an empty array may have.
        guard !bytes.isEmpty else { return nil }
        var result: Result<YAMLNode?, YAMLError> = .success(nil)
        bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else {
                result = .failure(YAMLError(path: path, location: positions.location(ofByte: 0), message: "libyaml could not start"))
                return
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = TreeBuilder(path: path, positions: positions)
            result = Result { () throws(YAMLError) -> YAMLNode? in try builder.run(&parser) }
        }
        if case .failure(let error) = result, let tab = tabIndentation(near: error.location.line, in: bytes) {
            throw YAMLError(
                path: path, location: SourceLocation(line: tab.line, column: 1, offset: tab.offset),
                message: error.message + "; line \(tab.line) is indented with a tab, and YAML indents with spaces only: replace the tab with spaces")
        }
        return try result.get()
    }

    /// The line at or just before `line` (1-based) whose indentation holds a tab, libyaml's most common complaint.
    private static func tabIndentation(near line: Int, in bytes: [UInt8]) -> (line: Int, offset: Int)? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for number in [line, line - 1] where number >= 1 && number <= lines.count {
            let text = lines[number - 1]
            if text.prefix(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).contains(UInt8(ascii: "\t")) {
                return (number, text.startIndex)
            }
        }
        return nil
    }
}

private struct TreeBuilder {
    enum Open {
        case mapping([(key: YAMLScalar, value: YAMLNode)], keys: [String: SourceLocation], pendingKey: YAMLScalar?, start: SourceLocation, flow: Bool)
        case sequence([YAMLNode], start: SourceLocation, flow: Bool)
    }

    let path: String
    let positions: TextPositions
    var stack: [Open] = []
    var root: YAMLNode?
    var documents = 0

    mutating func run(_ parser: inout yaml_parser_t) throws(YAMLError) -> YAMLNode? {
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) != 0 else { throw parserError(parser) }
            defer { yaml_event_delete(&event) }
            let start = positions.location(of: event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return root
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLError(path: path, location: start, message: "only one YAML document is allowed; remove the '---' and what follows")
                }
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let value = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
                let scalar = YAMLScalar(
                    value: value, style: Self.style(data.style), start: start, end: positions.location(of: event.end_mark),
                    hasTagOrAnchor: data.tag != nil || data.anchor != nil)
                try add(.scalar(scalar))
            case YAML_MAPPING_START_EVENT:
                stack.append(.mapping([], keys: [:], pendingKey: nil, start: start, flow: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE))
            case YAML_SEQUENCE_START_EVENT:
                stack.append(.sequence([], start: start, flow: event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE))
            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                switch stack.popLast() {
                case .mapping(let entries, _, _, let start, let flow)?: try add(.mapping(entries, start: start, flow: flow))
                case .sequence(let items, let start, let flow)?: try add(.sequence(items, start: start, flow: flow))
                case nil: break
                }
            case YAML_ALIAS_EVENT:
                throw YAMLError(path: path, location: start, message: "aliases (*name) are not supported here; write the value out")
            default:
                break
            }
        }
    }

    private mutating func add(_ node: YAMLNode) throws(YAMLError) {
        guard let top = stack.popLast() else {
            root = node
            return
        }
        switch top {
        case .sequence(var items, let start, let flow):
            items.append(node)
            stack.append(.sequence(items, start: start, flow: flow))
        case .mapping(var entries, var keys, let pendingKey, let start, let flow):
            if let key = pendingKey {
                entries.append((key, node))
                stack.append(.mapping(entries, keys: keys, pendingKey: nil, start: start, flow: flow))
                return
            }
            guard case .scalar(let key) = node else {
                throw YAMLError(path: path, location: node.start, message: "a key must be a plain word, not \(node.kindName)")
            }
            // A set of the keys seen, not a scan of the entries: mappings of thousands of components stay linear.
            if let first = keys[key.value] {
                throw YAMLError(path: path, location: key.start, message: "duplicate key '\(key.value)' (first at line \(first.line)); keep one of them")
            }
            keys[key.value] = key.start
            stack.append(.mapping(entries, keys: keys, pendingKey: key, start: start, flow: flow))
        }
    }

    private func parserError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        let context = parser.context.map { String(cString: $0) + ": " } ?? ""
        // Reader errors (bad encoding) carry only a byte offset; the others a character mark.
        let location =
            parser.error == YAML_READER_ERROR
            ? positions.location(ofByte: parser.problem_offset)
            : positions.location(of: parser.problem_mark)
        return YAMLError(path: path, location: location, message: "invalid YAML: \(context)\(problem)")
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}

/// Converts libyaml's character marks and raw byte offsets into ``SourceLocation``s.
struct TextPositions {
    private let bytes: [UInt8]
    private let bomLength: Int
    /// Byte offset of each character after the BOM; empty when the text is ASCII (offset = index + BOM).
    private let characterStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if bytes.dropFirst(bomLength).allSatisfy({ $0 < 0x80 }) {
            characterStarts = []
        } else {
            characterStarts = bytes.indices.dropFirst(bomLength).filter { bytes[$0] & 0xC0 != 0x80 }
        }
    }

    func location(of mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(line: mark.line + 1, column: mark.column + 1, offset: byteOffset(ofCharacter: mark.index))
    }

    func byteOffset(ofCharacter index: Int) -> Int {
        if characterStarts.isEmpty { return min(index + bomLength, bytes.count) }
        return index < characterStarts.count ? characterStarts[index] : bytes.count
    }

    func location(ofByte offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = bomLength
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column, offset: offset)
    }
}
