/// Edits components.yaml in place through the byte spans of its scalars: comments, order, quoting
/// and formatting survive, because only the bytes of one value (or one line) change.
public enum ComponentsFileEditor {
    /// The file's bytes with `field` of `component` set to `value` (added after the last field when absent).
    public static func setting(_ field: String, to value: String, of component: String, in workspace: Workspace) throws -> [UInt8] {
        let (entries, flow) = try fields(of: component, in: workspace)
        return try setting(field, to: value, in: entries, flow: flow, of: component, bytes: workspace.fileBytes)
    }

    /// The file's bytes with `workspace.<field>` set to `value` (added after the last field when absent).
    public static func settingWorkspace(_ field: String, to value: String, in workspace: Workspace) throws -> [UInt8] {
        let (entries, flow) = try workspaceFields(of: workspace)
        return try setting(field, to: value, in: entries, flow: flow, of: "workspace", bytes: workspace.fileBytes)
    }

    /// The file's bytes without `workspace.<field>` (unchanged when it is absent).
    public static func removingWorkspace(_ field: String, in workspace: Workspace) throws -> [UInt8] {
        let (entries, flow) = try workspaceFields(of: workspace)
        return try removing(field, in: entries, flow: flow, of: "workspace", bytes: workspace.fileBytes)
    }

    /// The file's bytes with the value of the top-level `key` (a block, on the lines after the key) replaced by
    /// `lines`; the key's own line and the comments above it stay.
    public static func replacingBlock(_ key: String, with lines: String, in workspace: Workspace) throws -> [UInt8] {
        guard case .mapping(let top, _, _) = workspace.document, let entry = top.first(where: { $0.key.value == key }) else {
            throw refusal("it has no top-level '\(key):'")
        }
        var bytes = workspace.fileBytes
        guard let keyLineEnd = bytes[entry.key.end.offset...].firstIndex(of: UInt8(ascii: "\n")) else { throw refusal("'\(key):' ends the file") }
        let valueEnd = end(of: entry.value, in: bytes)
        let end = max(keyLineEnd + 1, bytes[valueEnd...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count)
        bytes.replaceSubrange(entry.key.start.offset..<end, with: Array("\(key):\n\(lines)".utf8))
        return bytes
    }

    /// The file's bytes without the top-level `key`, its value and the comment lines right above it.
    public static func removingTopLevel(_ key: String, in workspace: Workspace) throws -> [UInt8] {
        guard case .mapping(let top, _, _) = workspace.document, let entry = top.first(where: { $0.key.value == key }) else { return workspace.fileBytes }
        var bytes = workspace.fileBytes
        let lineStart = bytes[..<entry.key.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let valueEnd = end(of: entry.value, in: bytes)
        let lineEnd = bytes[valueEnd...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        bytes.removeSubrange(commentStart(above: lineStart, indent: 0, in: bytes)..<lineEnd)
        return bytes
    }

    private static func setting(
        _ field: String, to value: String, in entries: [(key: YAMLScalar, value: YAMLNode)], flow: Bool, of component: String, bytes: [UInt8]
    ) throws -> [UInt8] {
        var bytes = bytes
        if let existing = entries.first(where: { $0.key.value == field }) {
            guard case .scalar(let scalar) = existing.value else { throw refusal("\(component).\(field) is not a single value") }
            let range = valueRange(of: scalar, in: bytes)
            bytes.replaceSubrange(range, with: Array(render(value, like: scalar).utf8))
            return bytes
        }
        guard let last = entries.last, case .scalar(let lastValue) = last.value else {
            throw refusal("component '\(component)' has no field to add '\(field)' after")
        }
        if flow {
            guard let brace = bytes[lastValue.end.offset...].firstIndex(of: UInt8(ascii: "}")) else { throw refusal("unclosed mapping of '\(component)'") }
            bytes.insert(contentsOf: Array(", \(field): \(value)".utf8), at: brace)
            return bytes
        }
        let lineStart = bytes[..<last.key.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let indent = Array(bytes[lineStart..<last.key.start.offset])
        guard indent.allSatisfy({ $0 == UInt8(ascii: " ") }) else { throw refusal("cannot tell the indentation of '\(component)'") }
        var insertion = indent + Array("\(field): \(value)\n".utf8)
        let lineEnd: Int
        if let newline = bytes[lastValue.end.offset...].firstIndex(of: UInt8(ascii: "\n")) {
            lineEnd = newline + 1
        } else {
            lineEnd = bytes.count
            insertion = [UInt8(ascii: "\n")] + insertion
        }
        bytes.insert(contentsOf: insertion, at: lineEnd)
        return bytes
    }

    /// The file's bytes without `field` of `component` (unchanged when it is absent).
    public static func removing(_ field: String, of component: String, in workspace: Workspace) throws -> [UInt8] {
        let (entries, flow) = try fields(of: component, in: workspace)
        return try removing(field, in: entries, flow: flow, of: component, bytes: workspace.fileBytes)
    }

    private static func removing(
        _ field: String, in entries: [(key: YAMLScalar, value: YAMLNode)], flow: Bool, of component: String, bytes: [UInt8]
    ) throws -> [UInt8] {
        guard let index = entries.firstIndex(where: { $0.key.value == field }) else { return bytes }
        let value = entries[index].value
        var bytes = bytes
        let key = entries[index].key
        if flow {
            let start = bytes[..<key.start.offset].lastIndex(of: UInt8(ascii: index == 0 ? "{" : ",")).map { index == 0 ? $0 + 1 : $0 } ?? key.start.offset
            var end = end(of: value, in: bytes)
            if index == 0, let comma = bytes[end...].firstIndex(where: { $0 != UInt8(ascii: " ") }), bytes[comma] == UInt8(ascii: ",") { end = comma + 1 }
            bytes.removeSubrange(start..<end)
            return bytes
        }
        guard entries.count > 1 else { throw refusal("cannot remove the only field of '\(component)'") }
        let lineStart = bytes[..<key.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let lineEnd = bytes[end(of: value, in: bytes)...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        bytes.removeSubrange(commentStart(above: lineStart, indent: key.start.offset - lineStart, in: bytes)..<lineEnd)
        return bytes
    }

    /// The byte range of `component`'s entry in the file `workspace` read: its lines, from its key to the
    /// end of its last value's line.
    public static func entryRange(of component: String, in workspace: Workspace) throws -> Range<Int> {
        let bytes = workspace.fileBytes
        guard case .mapping(let top, _, _) = workspace.document,
            case .mapping(let components, _, false)? = top.first(where: { $0.key.value == "components" })?.value
        else {
            throw refusal("its components are not a block mapping; remove '\(component)' by hand")
        }
        guard let entry = components.first(where: { $0.key.value == component }) else { throw workspace.unknownComponent(component) }
        let start = bytes[..<entry.key.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let last = end(of: entry.value, in: bytes)
        return start..<(bytes[last...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count)
    }

    /// The byte range (whole lines) of `workspace.start` when it opens a route of `removed`; nil when it stays.
    static func startRange(openingARouteOf removed: [Component], in analysis: WorkspaceAnalysis) -> Range<Int>? {
        let workspace = analysis.workspace
        guard let start = workspace.start, case .mapping(let top, _, _) = workspace.document,
            case .mapping(let fields, _, false)? = top.first(where: { $0.key.value == "workspace" })?.value,
            let entry = fields.first(where: { $0.key.value == "start" })
        else { return nil }
        // An implementation owns the routes its interface declares.
        let owners = removed.flatMap { [$0.name] + ($0.interface.map { [$0] } ?? []) }
        let patterns = owners.flatMap { analysis.packages[$0]?.targets.flatMap { $0.files.flatMap { $0.routes.map(\.pattern) } } ?? [] }
        // A route matches the URL's path: its query and fragment are the screen's arguments.
        let url = String(start.prefix { $0 != "?" && $0 != "#" })
        guard patterns.contains(where: { RouteShape.overlaps($0, url) }) else { return nil }
        let bytes = workspace.fileBytes
        let from = bytes[..<entry.key.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let last = end(of: entry.value, in: bytes)
        return from..<(bytes[last...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count)
    }

    /// The byte ranges (whole lines) of the `plugins:` entries naming `plugins`; a point left with no entry
    /// loses its key, and a `plugins:` left with no point loses its line too.
    public static func pluginEntryRanges(of plugins: Set<String>, in workspace: Workspace) -> [Range<Int>] {
        let bytes = workspace.fileBytes
        guard case .mapping(let top, _, _) = workspace.document, let section = top.first(where: { $0.key.value == "plugins" }),
            case .mapping(let points, _, false) = section.value
        else { return [] }
        func lines(_ start: Int, _ end: Int) -> Range<Int> {
            let from = bytes[..<start].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            return from..<(bytes[end...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count)
        }
        var ranges: [Range<Int>] = []
        var emptied = 0
        for point in points {
            guard case .sequence(let items, _, false) = point.value else { continue }
            let gone = items.filter { item in
                guard case .mapping(let fields, _, _) = item, case .scalar(let name)? = fields.first(where: { $0.key.value == "plugin" })?.value else {
                    return false
                }
                return plugins.contains(name.value)
            }
            if gone.count == items.count, !items.isEmpty {
                emptied += 1
                ranges.append(lines(point.key.start.offset, end(of: point.value, in: bytes)))
            } else {
                ranges += gone.map { lines($0.start.offset, end(of: $0, in: bytes)) }
            }
        }
        if emptied == points.count, let last = points.last {
            // The whole section goes, with the comment that explains it.
            let whole = lines(section.key.start.offset, end(of: last.value, in: bytes))
            return [commentStart(above: whole.lowerBound, indent: 0, in: bytes)..<whole.upperBound]
        }
        return ranges
    }

    /// Text a component's entries are written with, given the indentation of a component's key and of its fields.
    typealias Entries = (_ keyIndent: String, _ fieldIndent: String) -> String

    /// The file's bytes with component entries added at the end of `components:`. An empty `components: {}`, an empty
    /// `components:` and a file without the section are opened up in block style; entries written in flow style are refused.
    static func addingComponents(in workspace: Workspace, layer: String? = nil, _ entries: Entries) throws -> [UInt8] {
        var bytes = workspace.fileBytes
        guard case .mapping(let top, _, false) = workspace.document, let section = top.first(where: { $0.key.value == "components" }) else {
            let separator = bytes.isEmpty || bytes.last == UInt8(ascii: "\n") ? "" : "\n"
            return bytes + Array("\(separator)components:\n\(entries("  ", "    "))".utf8)
        }
        var insertion: Int
        switch section.value {
        case .mapping(let components, let start, true) where components.isEmpty:
            var from = start.offset
            let close = end(of: section.value, in: bytes)
            // No space is left at the end of 'components:' when nothing else is on its line.
            if bytes[close...].prefix(while: { $0 != UInt8(ascii: "\n") }).allSatisfy({ $0 == UInt8(ascii: " ") }) {
                while from > 0, bytes[from - 1] == UInt8(ascii: " ") { from -= 1 }
            }
            bytes.removeSubrange(from..<close)
            insertion = from
        case .scalar(let scalar) where scalar.value.isEmpty:
            insertion = section.key.end.offset
        default:
            let (offset, text) = try componentsInsertion(in: workspace, layer: layer, entries)
            bytes.insert(contentsOf: Array(text.utf8), at: offset)
            return bytes
        }
        insertion = bytes[insertion...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        let separator = insertion == bytes.count && !bytes.isEmpty && bytes.last != UInt8(ascii: "\n") ? "\n" : ""
        bytes.insert(contentsOf: Array((separator + entries("  ", "    ")).utf8), at: insertion)
        return bytes
    }

    /// Where entries go in a block-style `components:` of block-style entries, and their text, indented like the
    /// others: after the last component of `layer` or a layer above it (so a feature does not land under the
    /// foundation's heading), else before the first component and the comment above it; without a layer, after the last.
    static func componentsInsertion(in workspace: Workspace, layer: String? = nil, _ entries: Entries) throws -> (offset: Int, text: String) {
        guard case .mapping(let top, _, _) = workspace.document, let section = top.first(where: { $0.key.value == "components" }) else {
            throw ToolError("components.yaml has no components: section; add one.", status: .usage)
        }
        guard case .mapping(let components, _, false) = section.value, let last = components.last else { throw notBlockStyle(section.key) }
        let bytes = workspace.fileBytes
        let keyIndent = String(repeating: " ", count: last.key.start.column - 1)
        // Fields as the last entry has them, or two spaces below its key where they are written `{ path: ..., layer: ... }`.
        var fieldIndent = keyIndent + "  "
        if case .mapping(let fields, _, false) = last.value, let first = fields.first?.key {
            fieldIndent = String(repeating: " ", count: first.start.column - 1)
        }
        let text = entries(keyIndent, fieldIndent)
        var after = last
        if let layer {
            let rank = workspace.rules.rank(of: layer)
            let above = components.last { entry in workspace.component(named: entry.key.value).map { workspace.rules.rank(of: $0.layer) <= rank } ?? false }
            guard let above else {
                let first = components[0].key.start.offset
                let lineStart = bytes[..<first].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                // Above the blank lines that set the first component and its comment apart, which then set the new ones apart.
                var start = commentStart(above: lineStart, indent: first - lineStart, in: bytes)
                while start > 1, bytes[start - 1] == UInt8(ascii: "\n"), bytes[start - 2] == UInt8(ascii: "\n") { start -= 1 }
                return (start, text)
            }
            after = above
        }
        let end = end(of: after.value, in: bytes)
        if let newline = bytes[end...].firstIndex(of: UInt8(ascii: "\n")) { return (newline + 1, text) }
        return (bytes.count, "\n" + text)
    }

    private static func notBlockStyle(_ key: YAMLScalar) -> ToolError {
        ToolError(
            "components.yaml:\(key.start.line): the components are written in flow style ('components: {a: ..., b: ...}'), so componentctl "
                + "cannot add to them; write each on lines of its own ('  a:' with its fields below), then run the command again.",
            status: .usage)
    }

    /// The byte offset where `node` ends (a flow collection's closing bracket included).
    static func end(of node: YAMLNode, in bytes: [UInt8]) -> Int {
        switch node {
        case .scalar(let scalar):
            return scalar.end.offset
        case .mapping(let entries, let start, let flow):
            return closing(flow ? UInt8(ascii: "}") : nil, after: entries.last.map { end(of: $0.value, in: bytes) } ?? start.offset, in: bytes)
        case .sequence(let items, let start, let flow):
            return closing(flow ? UInt8(ascii: "]") : nil, after: items.last.map { end(of: $0, in: bytes) } ?? start.offset, in: bytes)
        }
    }

    private static func closing(_ bracket: UInt8?, after offset: Int, in bytes: [UInt8]) -> Int {
        guard let bracket else { return offset }
        return bytes[offset...].firstIndex(of: bracket).map { $0 + 1 } ?? offset
    }

    /// Where the comment lines right above the line at `lineStart` begin (`lineStart` when there are none):
    /// lines of only a comment, indented by `indent` like the field they describe, which go with it.
    private static func commentStart(above lineStart: Int, indent: Int, in bytes: [UInt8]) -> Int {
        var start = lineStart
        while start > 0 {
            let previous = bytes[..<(start - 1)].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            let line = bytes[previous..<(start - 1)]
            guard line.count > indent, line.prefix(indent).allSatisfy({ $0 == UInt8(ascii: " ") }), line[previous + indent] == UInt8(ascii: "#") else { break }
            start = previous
        }
        return start
    }

    private static func workspaceFields(of workspace: Workspace) throws -> ([(key: YAMLScalar, value: YAMLNode)], Bool) {
        guard case .mapping(let top, _, _) = workspace.document,
            case .mapping(let entries, _, let flow)? = top.first(where: { $0.key.value == "workspace" })?.value
        else {
            throw refusal("it has no 'workspace:' mapping")
        }
        return (entries, flow)
    }

    private static func fields(of component: String, in workspace: Workspace) throws -> ([(key: YAMLScalar, value: YAMLNode)], Bool) {
        guard case .mapping(let top, _, _) = workspace.document,
            case .mapping(let components, _, _)? = top.first(where: { $0.key.value == "components" })?.value,
            case .mapping(let entries, _, let flow)? = components.first(where: { $0.key.value == component })?.value
        else {
            throw workspace.unknownComponent(component)
        }
        return (entries, flow)
    }

    /// The bytes of a scalar's value itself: its span without a leading tag or anchor.
    private static func valueRange(of scalar: YAMLScalar, in bytes: [UInt8]) -> Range<Int> {
        var start = scalar.start.offset
        if scalar.hasTagOrAnchor {
            while start < scalar.end.offset, bytes[start] == UInt8(ascii: "!") || bytes[start] == UInt8(ascii: "&") {
                while start < scalar.end.offset, bytes[start] != UInt8(ascii: " ") { start += 1 }
                while start < scalar.end.offset, bytes[start] == UInt8(ascii: " ") { start += 1 }
            }
        }
        return start..<scalar.end.offset
    }

    private static func render(_ value: String, like scalar: YAMLScalar) -> String {
        switch scalar.style {
        case .singleQuoted: "'\(value.replacingOccurrences(of: "'", with: "''"))'"
        case .doubleQuoted: "\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        default: value
        }
    }

    static func refusal(_ message: String) -> ToolError {
        ToolError("Cannot edit components.yaml in place: \(message). Edit it by hand.", status: .usage)
    }
}
