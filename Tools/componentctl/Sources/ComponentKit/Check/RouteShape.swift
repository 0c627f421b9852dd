/// The shape of a route pattern, as the router computes it for its collision check (`RoutePattern.shape`):
/// capture names erased, the scheme and host lower-cased, the host and literal segments percent-decoded,
/// empty segments (a trailing slash, doubled slashes) dropped. Two patterns of one shape collide.
///
/// componentctl builds on its own, without the workspace's router, so it keeps this copy of the
/// definition; the App's tests hold the two to the same answers over a corpus of tricky patterns
/// (`componentctl dev route-shape`).
public enum RouteShape {
    /// The shape of `pattern`.
    public static func of(_ pattern: String) -> String {
        guard let separator = pattern.range(of: "://") else { return pattern }
        var rest = pattern[separator.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        let host = decoded(parts.first ?? "").lowercased()
        let path = parts.dropFirst().filter { !$0.isEmpty }.map { part -> String in
            if part.hasPrefix(":") { return ":" }
            if part.hasPrefix("*") { return "*" }
            if part.hasPrefix("<"), part.hasSuffix(">"), let colon = part.firstIndex(of: ":") { return String(part[..<colon]) + ">" }
            return decoded(part)
        }
        return ([pattern[..<separator.lowerBound].lowercased() + ":/", host] + path).joined(separator: "/")
    }

    /// `text` with its `%XX` escapes decoded (UTF-8), or as written when an escape is malformed.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                    let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else {
                    return String(text)
                }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }
}
