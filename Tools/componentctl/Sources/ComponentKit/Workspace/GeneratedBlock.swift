/// A `// BEGIN componentctl: …` … `// END componentctl: …` block of a hand-written file: the lines between
/// the two markers are componentctl's to edit, everything else is the team's.
struct GeneratedBlock: Sendable {
    /// The first marker line.
    let begin: String
    /// The last marker line.
    let end: String

    /// The root Package.swift's component packages and products.
    static let manifest = GeneratedBlock(begin: RootManifest.begin, end: RootManifest.end)

    /// The text between the marker lines (from the end of `begin` to the start of `end`), or nil without the block.
    func contents(in text: String) -> Range<String.Index>? {
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return nil }
        return start.upperBound..<stop.lowerBound
    }

    /// What is wrong with `text`, which has no whole block: the BEGIN line is missing, or the END line after it.
    func absence(in text: String) -> String {
        guard text.contains(begin) else { return "has no '\(begin)' line" }
        return "has a '\(begin)' line but no '\(end)' line after it"
    }

    /// `text` with the block's contents replaced by `transform` of them, or nil without the block.
    func rewriting(_ text: String, _ transform: (String) throws -> String) rethrows -> String? {
        guard let range = contents(in: text) else { return nil }
        var result = text
        result.replaceSubrange(range, with: try transform(String(text[range])))
        return result
    }

    /// `text` without the block's lines for which `matches` holds (unchanged without the block).
    func removingLines(from text: String, where matches: (String) -> Bool) -> String {
        rewriting(text) { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            // The first and last pieces are the rest of the marker lines, never content.
            return lines.enumerated().filter { index, line in index == 0 || index == lines.count - 1 || !matches(String(line)) }
                .map(\.element).joined(separator: "\n")
        } ?? text
    }

    /// The 1-based numbers of the lines strictly between the markers, or nil without the block.
    func lineNumbers(in text: String) -> ClosedRange<Int>? {
        guard let range = contents(in: text) else { return nil }
        let first = text[..<range.lowerBound].filter { $0 == "\n" }.count + 2
        let last = text[..<range.upperBound].filter { $0 == "\n" }.count
        return first <= last ? first...last : nil
    }
}
