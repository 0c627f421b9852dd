import Foundation

/// The root of the cache tree git keeps in its index (the `TREE` extension): the id of the tree the index would
/// commit, recorded while it is known. Git writes commits from it, so when it equals HEAD's tree nothing is staged,
/// and the status need not compare HEAD's 20,000 paths with the index's one by one.
enum IndexTreeCache {
    /// The tree id the index at `url` records for its root, or nil when the file holds none valid (or is not an index
    /// this reader knows: versions 2 to 4, 20-byte ids).
    static func rootTree(ofIndexAt url: URL) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return data.withUnsafeBytes { raw in rootTree(Array(raw.bindMemory(to: UInt8.self))) }
    }

    static func rootTree(_ bytes: [UInt8]) -> [UInt8]? {
        let idSize = 20
        guard bytes.count >= 12 + idSize, bytes[0..<4].elementsEqual("DIRC".utf8) else { return nil }
        let version = integer(bytes, at: 4), count = integer(bytes, at: 8)
        guard (2...4).contains(version) else { return nil }
        var offset = 12
        for _ in 0..<count {
            guard let next = entryEnd(bytes, at: offset, version: version, idSize: idSize) else { return nil }
            offset = next
        }
        // Extensions follow the entries, up to the checksum at the end.
        while offset + 8 <= bytes.count - idSize {
            let size = integer(bytes, at: offset + 4)
            let body = offset + 8
            guard body + size <= bytes.count - idSize else { return nil }
            if bytes[offset..<offset + 4].elementsEqual("TREE".utf8) {
                return root(bytes[body..<body + size], idSize: idSize)
            }
            offset = body + size
        }
        return nil
    }

    /// Where the entry at `offset` ends: 62 bytes of stat data, id and flags, 2 more when extended (version 3 and up),
    /// then the path, NUL-padded to a multiple of 8 (versions 2 and 3) or prefix-compressed and NUL-ended (version 4).
    private static func entryEnd(_ bytes: [UInt8], at offset: Int, version: Int, idSize: Int) -> Int? {
        let fixed = 40 + idSize + 2
        guard offset + fixed <= bytes.count else { return nil }
        let flags = Int(bytes[offset + 40 + idSize]) << 8 | Int(bytes[offset + 40 + idSize + 1])
        var path = offset + fixed + (version >= 3 && flags & 0x4000 != 0 ? 2 : 0)
        if version == 4 {
            // A varint (how much of the previous path to drop), then the rest of the path up to a NUL.
            while path < bytes.count, bytes[path] & 0x80 != 0 { path += 1 }
            path += 1
        }
        guard path < bytes.count, let nul = bytes[path...].firstIndex(of: 0) else { return nil }
        return version == 4 ? nul + 1 : offset + ((nul - offset + 8) & ~7)
    }

    /// The root's id from the extension's first record: a path (empty for the root), NUL, the entry count (-1 when
    /// the tree is not known), a space, the subtree count, a newline, then the id when known.
    private static func root(_ body: ArraySlice<UInt8>, idSize: Int) -> [UInt8]? {
        guard body.first == 0, let newline = body.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let counts = String(decoding: body[(body.startIndex + 1)..<newline], as: UTF8.self).split(separator: " ")
        guard counts.count == 2, let entries = Int(counts[0]), entries >= 0, newline + 1 + idSize <= body.endIndex else { return nil }
        return Array(body[(newline + 1)..<(newline + 1 + idSize)])
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
