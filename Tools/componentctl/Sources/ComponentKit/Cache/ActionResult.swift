/// The part of the Remote Execution API's `ActionResult` message a passed result needs: an exit code of 0
/// and the digest of its record in the content-addressed store (`stdout_digest`). Entries written this
/// way are valid action-cache entries, so bazel-remote accepts them with its validation on.
struct ActionResult: Equatable {
    /// The lower-case hex SHA-256 of the record.
    var recordHash: String
    /// The record's size in bytes.
    var recordSize: Int
    /// The action's exit code.
    var exitCode: Int = 0

    /// The message in protocol buffers' wire format.
    func encoded() -> [UInt8] {
        var digest: [UInt8] = [0x0A] + varint(recordHash.utf8.count) + Array(recordHash.utf8)
        digest += [0x10] + varint(recordSize)
        var message: [UInt8] = []
        if exitCode != 0 { message += [0x20] + varint(exitCode) }
        // Field 6 (stdout_digest), length-delimited.
        message += [0x32] + varint(digest.count) + digest
        return message
    }

    /// Reads a message; nil when `bytes` is not one this tool wrote (any other field is skipped).
    init?(decoding bytes: [UInt8]) {
        var reader = Reader(bytes: bytes[...])
        var exitCode = 0
        var digest: ArraySlice<UInt8>?
        while !reader.isAtEnd {
            guard let (field, wire) = reader.tag() else { return nil }
            switch (field, wire) {
            case (4, 0):
                guard let value = reader.varint() else { return nil }
                exitCode = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: value))
            case (6, 2):
                guard let value = reader.lengthDelimited() else { return nil }
                digest = value
            default:
                guard reader.skip(wire) else { return nil }
            }
        }
        guard let digest else { return nil }
        var inner = Reader(bytes: digest)
        var hash: String?
        var size: Int?
        while !inner.isAtEnd {
            guard let (field, wire) = inner.tag() else { return nil }
            switch (field, wire) {
            case (1, 2): hash = inner.lengthDelimited().map { String(decoding: $0, as: UTF8.self) }
            case (2, 0): size = inner.varint().map { Int(truncatingIfNeeded: $0) }
            default: guard inner.skip(wire) else { return nil }
            }
        }
        guard let hash, hash.count == 64, hash.allSatisfy(\.isHexDigit), let size, size >= 0 else { return nil }
        self.init(recordHash: hash, recordSize: size, exitCode: exitCode)
    }

    init(recordHash: String, recordSize: Int, exitCode: Int = 0) {
        self.recordHash = recordHash
        self.recordSize = recordSize
        self.exitCode = exitCode
    }

    private func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(bitPattern: Int64(value))
        var bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value != 0
        return bytes
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>
        var isAtEnd: Bool { bytes.isEmpty }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let byte = bytes.popFirst() else { return nil }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            return nil
        }

        mutating func tag() -> (Int, Int)? {
            guard let tag = varint(), tag >> 3 > 0 else { return nil }
            return (Int(tag >> 3), Int(tag & 7))
        }

        mutating func lengthDelimited() -> ArraySlice<UInt8>? {
            guard let length = varint(), length <= UInt64(bytes.count) else { return nil }
            let value = bytes.prefix(Int(length))
            bytes = bytes.dropFirst(Int(length))
            return value
        }

        mutating func skip(_ wire: Int) -> Bool {
            switch wire {
            case 0: return varint() != nil
            case 1, 5:
                let width = wire == 1 ? 8 : 4
                guard bytes.count >= width else { return false }
                bytes = bytes.dropFirst(width)
                return true
            case 2: return lengthDelimited() != nil
            default: return false
            }
        }
    }
}
