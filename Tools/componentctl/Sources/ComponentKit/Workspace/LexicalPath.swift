/// Paths with `.` and `..` applied to the text alone, as `URL.standardizedFileURL` does, at a fraction of its cost:
/// keys and the dependency graph resolve one for every path dependency of every component.
enum LexicalPath {
    /// `path` (absolute, or relative to the absolute folder `folder`) without `.`, `..`, repeated or trailing slashes.
    static func resolve(_ path: String, from folder: String = "/") -> String {
        "/" + (parts(of: (path.hasPrefix("/") ? "" : folder + "/") + path, aboveTop: .stay) ?? []).joined(separator: "/")
    }

    /// The absolute `path` written relative to the absolute folder `folder` (`../core`), both resolved first.
    static func relative(_ path: String, from folder: String) -> String {
        let target = resolve(path).split(separator: "/"), base = resolve(folder).split(separator: "/")
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// What a `..` at the top does: stays there (as `/..` is `/`), or makes the path invalid.
    enum AboveTop { case stay, fail }

    /// The names of `path` with `.` and `..` applied; nil when a `..` climbs above the top and `aboveTop` is `.fail`.
    static func parts(of path: String, aboveTop: AboveTop) -> [Substring]? {
        var parts: [Substring] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                if parts.popLast() == nil, aboveTop == .fail { return nil }
                continue
            }
            parts.append(Substring(part))
        }
        return parts
    }
}
