public import Foundation

/// What identifies a build of a shared library, such as the Swift runtime (`libswiftCore.so`) a plugin
/// was linked against: its GNU build ID, read from the ELF notes (a few reads, however large the file),
/// or the file's SHA-256 when it has none.
public enum RuntimeIdentity {
    /// `gnu-build-id:<hex>` or `sha256:<hex>` of the library at `url`.
    public static func of(library url: URL) throws -> String {
        if let id = try? gnuBuildID(of: url) { return "gnu-build-id:" + id }
        return "sha256:" + (try Digest.sha256(fileAt: url))
    }

    /// The GNU build ID of a 64-bit little-endian ELF file, or nil when it has none.
    static func gnuBuildID(of url: URL) throws -> String? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        func read(_ offset: UInt64, _ count: Int) throws -> [UInt8] {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw FeedError("\(url.path) ends early") }
            return [UInt8](data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        let header = try read(0, 64)
        guard header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let tableOffset = integer(header, 0x20, 8), entrySize = Int(integer(header, 0x36, 2)), count = Int(integer(header, 0x38, 2))
        guard entrySize >= 56, count < 128 else { return nil }
        let table = try read(tableOffset, entrySize * count)
        for index in 0..<count where integer(table, index * entrySize, 4) == 4 { // PT_NOTE
            let offset = integer(table, index * entrySize + 8, 8), size = Int(integer(table, index * entrySize + 32, 8))
            guard size < 1 << 16 else { continue }
            let notes = try read(offset, size)
            var at = 0
            while at + 12 <= notes.count {
                let nameSize = Int(integer(notes, at, 4)), descriptionSize = Int(integer(notes, at + 4, 4)), type = integer(notes, at + 8, 4)
                let name = at + 12, description = name + (nameSize + 3) / 4 * 4
                guard description + descriptionSize <= notes.count else { break }
                if type == 3, nameSize == 4, notes[name..<(name + 3)] == [0x47, 0x4E, 0x55] { // NT_GNU_BUILD_ID, "GNU"
                    return notes[description..<(description + descriptionSize)].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                }
                at = description + (descriptionSize + 3) / 4 * 4
            }
        }
        return nil
    }
}
