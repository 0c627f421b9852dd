public import Foundation

/// A runtime plugin's archive: a plain POSIX tar (readable by `tar xf`) of the manifest, its signature
/// and the library. Files only, flat, no links: unpacking can never write outside its folder.
public struct PluginArchive: Sendable {
    /// The manifest's name in the archive.
    public static let manifestName = "manifest.json"
    /// The manifest's signature's name.
    public static let signatureName = "manifest.sig"

    /// The files, by name.
    public var files: [String: Data]

    /// An archive of `files`.
    public init(files: [String: Data]) { self.files = files }

    /// The tar bytes: entries sorted by name, owner root, time 0, so the same files make the same archive.
    public func encoded() throws -> Data {
        var out = Data()
        for (name, data) in files.sorted(by: { $0.key < $1.key }) {
            guard PluginID.isSafeFileName(name), name.utf8.count < 100 else { throw FeedError("'\(name)' cannot be stored in a plugin archive") }
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
            put(name, at: 0)
            put(Self.octal(name.hasSuffix(".so") ? 0o755 : 0o644, width: 7), at: 100)
            put(Self.octal(0, width: 7), at: 108)
            put(Self.octal(0, width: 7), at: 116)
            put(Self.octal(data.count, width: 11), at: 124)
            put(Self.octal(0, width: 11), at: 136)
            put("        ", at: 148)
            put("0", at: 156)
            put("ustar", at: 257)
            put("00", at: 263)
            put(Self.octal(header.reduce(0) { $0 + Int($1) }, width: 6), at: 148)
            out.append(contentsOf: header)
            out.append(data)
            out.append(Data(count: (512 - data.count % 512) % 512))
        }
        out.append(Data(count: 1024))
        return out
    }

    /// Reads tar bytes; throws when they are no plugin archive (truncated, a bad checksum, a link, a folder,
    /// a path, the same name twice).
    public init(decoding data: Data) throws {
        let bytes = [UInt8](data)
        var files: [String: Data] = [:]
        var offset = 0
        while true {
            guard offset + 512 <= bytes.count else { throw FeedError("the archive is truncated (it ends inside an entry's header)") }
            let header = bytes[offset..<(offset + 512)]
            if header.allSatisfy({ $0 == 0 }) { break }
            let stored = Self.number(header, 148, 8)
            let sum = header.enumerated().reduce(0) { sum, item in sum + ((148..<156).contains(item.offset) ? 32 : Int(item.element)) }
            guard stored == sum else { throw FeedError("the archive is damaged (a header's checksum is wrong)") }
            let name = Self.text(header, 0, 100)
            // ustar's prefix field would make the name `prefix/name` for tar; the App reads names whole, so it refuses one.
            let prefix = Self.text(header, 345, 155)
            guard prefix.isEmpty else {
                throw FeedError(
                    "the archive names '\(prefix)/\(name)' through the ustar prefix field, which plugin archives never use; pack it with componentctl")
            }
            let type = header[offset + 156]
            guard type == UInt8(ascii: "0") || type == 0 else { throw FeedError("the archive holds '\(name)', which is no plain file") }
            guard PluginID.isSafeFileName(name) else { throw FeedError("the archive holds '\(name)', which is no plain file name") }
            guard let size = Self.number(header, 124, 12), size >= 0 else { throw FeedError("the archive is damaged (the size of '\(name)')") }
            let start = offset + 512
            guard start + size <= bytes.count else { throw FeedError("the archive is truncated (in '\(name)')") }
            guard files.updateValue(Data(bytes[start..<(start + size)]), forKey: name) == nil else {
                throw FeedError("the archive holds '\(name)' twice")
            }
            offset = start + (size + 511) / 512 * 512
        }
        self.files = files
    }

    private static func octal(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func text(_ header: ArraySlice<UInt8>, _ offset: Int, _ length: Int) -> String {
        let start = header.startIndex + offset
        let field = header[start..<(start + length)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func number(_ header: ArraySlice<UInt8>, _ offset: Int, _ length: Int) -> Int? {
        Int(text(header, offset, length).trimmingCharacters(in: CharacterSet(charactersIn: " \0")), radix: 8)
    }
}
