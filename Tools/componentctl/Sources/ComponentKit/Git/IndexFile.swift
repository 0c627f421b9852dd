import Foundation

/// git's index file as git wrote it (versions 2 to 4, 20-byte ids): each entry's stat data, id, mode, flags and path,
/// and the root of its cache tree.
///
/// The trailing checksum is not verified (git's own `index.skipHash` leaves it out too). A damaged entry can only make
/// its file look changed: the reader refuses entries out of order, and a path, mode or stat field that is off no longer
/// matches the file on disk.
struct IndexFile: Sendable {
    /// One entry: where its fixed fields start in ``bytes`` and where its path starts in ``paths``.
    struct Entry: Sendable {
        let offset: Int
        let pathStart: Int
        let pathLength: Int
        /// The 16-bit flags: assume-valid (0x8000), extended (0x4000), the stage (0x3000).
        let flags: UInt16
        /// The extended flags of versions 3 and 4: skip-worktree (0x4000), intent-to-add (0x2000).
        let extendedFlags: UInt16
    }

    /// The fields of an entry's stat data, in the order git writes them (32 bits each, big-endian).
    enum Field: Int {
        case ctimeSeconds, ctimeNanoseconds, mtimeSeconds, mtimeNanoseconds, device, inode, mode, user, group, size
    }

    let bytes: [UInt8]
    /// Every entry's path, each followed by a NUL (version 4 compresses them in the file).
    let paths: [UInt8]
    let entries: [Entry]
    /// The id of the tree the index would commit, when its cache tree knows it.
    let rootTree: [UInt8]?
    /// Extensions a reader must understand to read the index right (their signature starts with a lower-case letter:
    /// `link` of a split index, `sdir` of a sparse one); this reader knows none of them.
    let requiredExtensions: [String]
    /// When the index file was last written: a file changed in the same instant may still match its stat data.
    let written: timespec

    private static let idSize = 20
    /// An entry's stat data, id and flags: what every entry has before its path.
    private static let fixedSize = 40 + idSize + 2

    /// The index at `url`, or nil when there is none or it is not an index this reader knows.
    static func read(at url: URL) -> IndexFile? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 12 + idSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var filled = 0
            while filled < buffer.count {
                let count = pread(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled, off_t(filled))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                filled += count
            }
            return true
        }
        guard complete else { return nil }
        return IndexFile(bytes, written: info.st_mtim)
    }

    /// Parses `bytes`; nil when they are no index this reader knows.
    init?(_ bytes: [UInt8], written: timespec = timespec()) {
        let idSize = Self.idSize
        guard bytes.count >= 12 + idSize, bytes[0..<4].elementsEqual("DIRC".utf8) else { return nil }
        let version = Self.integer(bytes, at: 4)
        let count = Self.integer(bytes, at: 8)
        guard (2...4).contains(version) else { return nil }
        let end = bytes.count - idSize
        var entries: [Entry] = []
        // A damaged count is no reason to ask for memory: an entry takes at least 62 bytes.
        entries.reserveCapacity(min(count, bytes.count / Self.fixedSize))
        var paths: [UInt8] = []
        paths.reserveCapacity(bytes.count / 2)
        var previous = (start: 0, length: 0)
        var offset = 12
        let fixed = Self.fixedSize
        for _ in 0..<count {
            guard offset + fixed <= end else { return nil }
            let flags = UInt16(bytes[offset + fixed - 2]) << 8 | UInt16(bytes[offset + fixed - 1])
            let extended = version >= 3 && flags & 0x4000 != 0
            let extendedFlags = extended ? UInt16(bytes[offset + fixed]) << 8 | UInt16(bytes[offset + fixed + 1]) : 0
            var cursor = offset + fixed + (extended ? 2 : 0)
            let start = paths.count
            if version == 4 {
                // A varint (how many bytes of the previous path to drop), then the rest of this path up to a NUL.
                var drop = 0
                var byte: UInt8
                repeat {
                    guard cursor < end else { return nil }
                    byte = bytes[cursor]
                    cursor += 1
                    drop = drop << 7 | Int(byte & 0x7f)
                    if byte & 0x80 != 0 { drop += 1 }
                } while byte & 0x80 != 0
                guard drop <= previous.length else { return nil }
                paths.append(contentsOf: paths[previous.start..<(previous.start + previous.length - drop)])
            }
            guard cursor < end, let nul = bytes[cursor..<end].firstIndex(of: 0) else { return nil }
            paths.append(contentsOf: bytes[cursor..<nul])
            let length = paths.count - start
            paths.append(0)
            // git keeps entries sorted by path, then stage: anything else is no index git wrote.
            guard length > 0, entries.isEmpty || Self.precedes(paths, previous, (start, length), flags: (entries[entries.count - 1].flags, flags)) else {
                return nil
            }
            entries.append(Entry(offset: offset, pathStart: start, pathLength: length, flags: flags, extendedFlags: extendedFlags))
            previous = (start, length)
            offset = version == 4 ? nul + 1 : offset + ((nul - offset + 8) & ~7)
        }
        var rootTree: [UInt8]?
        var required: [String] = []
        // Extensions follow the entries, up to the checksum at the end.
        while offset + 8 <= end {
            let size = Self.integer(bytes, at: offset + 4)
            let body = offset + 8
            guard body + size <= end else { return nil }
            let signature = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if signature == "TREE" {
                rootTree = Self.root(bytes[body..<body + size])
            } else if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[offset]) {
                required.append(signature)
            }
            offset = body + size
        }
        self.bytes = bytes
        self.paths = paths
        self.entries = entries
        self.rootTree = rootTree
        self.requiredExtensions = required
        self.written = written
    }

    /// The field `field` of `entry`'s stat data.
    func value(_ field: Field, of entry: Entry) -> UInt32 {
        Self.integer32(bytes, at: entry.offset + 4 * field.rawValue)
    }

    /// The id `entry` records.
    func id(of entry: Entry) -> ArraySlice<UInt8> {
        bytes[(entry.offset + 40)..<(entry.offset + 40 + Self.idSize)]
    }

    /// The path of `entry`.
    func path(of entry: Entry) -> String {
        String(decoding: paths[entry.pathStart..<(entry.pathStart + entry.pathLength)], as: UTF8.self)
    }

    /// Whether an entry is a file named `name` (at the top or in any folder).
    func hasFile(named name: String) -> Bool {
        let wanted = Array(name.utf8)
        return entries.contains { entry in
            entry.pathLength >= wanted.count
                && paths[(entry.pathStart + entry.pathLength - wanted.count)..<(entry.pathStart + entry.pathLength)].elementsEqual(wanted)
                && (entry.pathLength == wanted.count || paths[entry.pathStart + entry.pathLength - wanted.count - 1] == UInt8(ascii: "/"))
        }
    }

    /// Whether the path at `a` sorts before the one at `b` in git's order (bytes, then the stage), never equal.
    private static func precedes(_ paths: [UInt8], _ a: (start: Int, length: Int), _ b: (start: Int, length: Int), flags: (UInt16, UInt16)) -> Bool {
        let order = paths.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            let common = min(a.length, b.length)
            let compared = memcmp(base + a.start, base + b.start, common)
            return compared != 0 ? compared : Int32(a.length - b.length)
        }
        return order < 0 || (order == 0 && flags.0 & 0x3000 < flags.1 & 0x3000)
    }

    /// The root's id from the cache tree's first record: a path (empty for the root), NUL, the entry count (-1 when
    /// the tree is not known), a space, the subtree count, a newline, then the id when known.
    private static func root(_ body: ArraySlice<UInt8>) -> [UInt8]? {
        guard body.first == 0, let newline = body.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let counts = String(decoding: body[(body.startIndex + 1)..<newline], as: UTF8.self).split(separator: " ")
        guard counts.count == 2, let entries = Int(counts[0]), entries >= 0, newline + 1 + idSize <= body.endIndex else { return nil }
        return Array(body[(newline + 1)..<(newline + 1 + idSize)])
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(integer32(bytes, at: offset))
    }

    private static func integer32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
