import Foundation

/// Finds the closest name for "Did you mean" hints.
public enum Suggestion {
    /// The candidate within a small edit distance of `name`, or nil; never `name` itself (a hint that
    /// repeats the input says nothing: the problem is elsewhere).
    public static func closest(to name: String, in candidates: [String]) -> String? {
        let scored = candidates.filter { $0 != name }.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
