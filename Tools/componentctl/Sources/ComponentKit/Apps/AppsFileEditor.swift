/// In-place edits of components.yaml's `apps:`: a component joins or leaves apps' `components:` lists
/// (flow `[a, b]` or block `- a` lists alike), everything else byte for byte as it was.
enum AppsFileEditor {
    /// `bytes` (a components.yaml) with `component` appended to the `components:` list of each app in `apps`.
    static func adding(_ component: String, to apps: [String], in bytes: [UInt8]) throws -> [UInt8] {
        guard !apps.isEmpty else { return bytes }
        let document = try YAMLLoader.load(bytes, path: WorkspaceLoader.fileName)
        var insertions: [(offset: Int, text: String)] = []
        for app in apps {
            guard case .sequence(let items, let start, let flow)? = componentsList(of: app, in: document) else {
                throw ComponentsFileEditor.refusal("app '\(app)' has no 'components:' list to add '\(component)' to")
            }
            guard let last = items.last else {
                // An empty list is written `[]`: the component goes inside the brackets.
                guard flow, let bracket = bytes[start.offset...].firstIndex(of: UInt8(ascii: "[")) else {
                    throw ComponentsFileEditor.refusal("app '\(app)' has no 'components:' list to add '\(component)' to")
                }
                insertions.append((bracket + 1, component))
                continue
            }
            let end = ComponentsFileEditor.end(of: last, in: bytes)
            if flow {
                insertions.append((end, ", \(component)"))
            } else {
                let lineStart = bytes[..<last.start.offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                insertions.append((end, "\n" + String(decoding: bytes[lineStart..<last.start.offset], as: UTF8.self) + component))
            }
        }
        var result = bytes
        for insertion in insertions.sorted(by: { $0.offset > $1.offset }) { result.insert(contentsOf: Array(insertion.text.utf8), at: insertion.offset) }
        return result
    }

    /// The byte ranges that take `components` out of every app of `workspace`: their list entries and
    /// their `missing:` entries; with the apps whose lists and whose `missing:` changed.
    static func removalRanges(of components: Set<String>, in workspace: Workspace) throws -> (ranges: [Range<Int>], apps: [String], leftOut: [String]) {
        let bytes = workspace.fileBytes
        var ranges: [Range<Int>] = []
        var touched: [String] = []
        var leftOut: [String] = []
        for app in workspace.apps {
            let gone = Set(app.componentNames).intersection(components)
            if !gone.isEmpty {
                guard case .sequence(let items, _, let flow)? = componentsList(of: app.name, in: workspace.document) else { continue }
                let goesWhole = items.allSatisfy { item in
                    guard case .scalar(let scalar) = item else { return false }
                    return components.contains(scalar.value)
                }
                // The last components out leave the shell alone: `[]`, or an empty block list.
                if flow, goesWhole, let first = items.first, let last = items.last {
                    ranges.append(first.start.offset..<ComponentsFileEditor.end(of: last, in: bytes))
                }
                for (index, item) in items.enumerated() where !(flow && goesWhole) {
                    guard case .scalar(let scalar) = item, components.contains(scalar.value) else { continue }
                    if !flow {
                        ranges.append(lines(scalar.start.offset, scalar.end.offset, in: bytes))
                    } else if index > 0 {
                        // `, name` after the entry before it (which stays, or goes by its own range).
                        ranges.append(ComponentsFileEditor.end(of: items[index - 1], in: bytes)..<scalar.end.offset)
                    } else {
                        ranges.append(scalar.start.offset..<items[1].start.offset)
                    }
                }
                touched.append(app.name)
            }
            if let absent = app.missing.first(where: { components.contains($0.component) }) {
                guard let (key, value) = entry("missing", of: app.name, in: workspace.document), case .mapping(let entries, _, false) = value else {
                    throw ComponentsFileEditor.refusal("the 'missing:' of app '\(app.name)' is no block mapping; take '\(absent.component)' out of it by hand")
                }
                // The last entries out take the key with them: an empty `missing:` says nothing.
                if entries.allSatisfy({ components.contains($0.key.value) }) {
                    ranges.append(lines(key.start.offset, ComponentsFileEditor.end(of: value, in: bytes), in: bytes))
                } else {
                    for entry in entries where components.contains(entry.key.value) {
                        ranges.append(lines(entry.key.start.offset, ComponentsFileEditor.end(of: entry.value, in: bytes), in: bytes))
                    }
                }
                leftOut.append(app.name)
            }
        }
        return (merged(ranges), touched, leftOut)
    }

    /// Adjacent flow entries that both go give overlapping ranges (`a, b` from `[x, a, b]`): one range each.
    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    private static func lines(_ start: Int, _ end: Int, in bytes: [UInt8]) -> Range<Int> {
        let from = bytes[..<start].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return from..<(bytes[end...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count)
    }

    private static func componentsList(of app: String, in document: YAMLNode?) -> YAMLNode? { field("components", of: app, in: document) }

    private static func field(_ name: String, of app: String, in document: YAMLNode?) -> YAMLNode? { entry(name, of: app, in: document)?.value }

    private static func entry(_ name: String, of app: String, in document: YAMLNode?) -> (key: YAMLScalar, value: YAMLNode)? {
        guard case .mapping(let top, _, _)? = document, case .mapping(let apps, _, _)? = top.first(where: { $0.key.value == "apps" })?.value,
            case .mapping(let fields, _, _)? = apps.first(where: { $0.key.value == app })?.value
        else { return nil }
        return fields.first { $0.key.value == name }
    }
}
