/// Every literal edge of the trie in one open-addressing hash table keyed by (parent node, bytes).
///
/// One table instead of a dictionary per node: a lookup hashes the segment's bytes where they lie
/// in the URL, so matching a literal allocates nothing and costs the same whether a node has one
/// child or ten thousand. A key's first and last 8 bytes live in its slot, so keys of up to 16
/// bytes (nearly all) are compared without reading the shared arena that holds the longer ones.
struct LiteralEdges: Sendable {
    fileprivate struct Slot: Sendable {
        /// The parent node, or -1 for an empty slot.
        var parent: Int32 = -1
        var child: Int32 = 0
        var key = KeyWords()
        /// Where the whole key starts in `longKeys`, for keys longer than 16 bytes.
        var longKeyStart: Int32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 16)
    private var longKeys: [UInt8] = []
    private var count = 0

    /// Read-only access to the table for the duration of `body`, without reference counting.
    func withView<R>(_ body: (View) -> R) -> R {
        slots.withUnsafeBufferPointer { slots in
            longKeys.withUnsafeBufferPointer { longKeys in body(View(slots: slots, longKeys: longKeys)) }
        }
    }

    /// The child of `parent` along `key`, or nil.
    func child(of parent: Int32, key: UnsafeBufferPointer<UInt8>) -> Int32? {
        withView { $0.child(of: parent, key: key) }
    }

    /// The table as plain pointers, valid inside ``withView(_:)``.
    struct View {
        fileprivate let slots: UnsafeBufferPointer<Slot>
        fileprivate let longKeys: UnsafeBufferPointer<UInt8>

        /// The child of `parent` along `key`, or nil.
        func child(of parent: Int32, key: UnsafeBufferPointer<UInt8>) -> Int32? {
            let words = KeyWords(key)
            let mask = slots.count - 1
            var index = words.slot(parent: parent) & mask
            while true {
                let slot = slots[index]
                if slot.parent < 0 { return nil }
                if slot.parent == parent, slot.key == words, key.count <= KeyWords.inlineLength || isLongKey(slot, key) {
                    return slot.child
                }
                index = (index &+ 1) & mask
            }
        }

        private func isLongKey(_ slot: Slot, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = Int(slot.longKeyStart)
            return longKeys[start ..< start + key.count].elementsEqual(key)
        }
    }

    /// Adds the edge `parent` --`key`--> `child`; the key must not be there yet.
    mutating func insert(parent: Int32, key: UnsafeBufferPointer<UInt8>, child: Int32) {
        if (count + 1) * 2 > slots.count { grow() }
        var slot = Slot(parent: parent, child: child, key: KeyWords(key))
        if key.count > KeyWords.inlineLength {
            slot.longKeyStart = Int32(longKeys.count)
            longKeys.append(contentsOf: key)
        }
        place(slot)
        count += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var index = slot.key.slot(parent: slot.parent) & mask
        while slots[index].parent >= 0 { index = (index &+ 1) & mask }
        slots[index] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        for slot in old where slot.parent >= 0 { place(slot) }
    }
}

/// A key's length, its first and last 8 bytes (overlapping when shorter than 16), and a hash of all of it.
///
/// For keys of up to 16 bytes the words are the whole key, so equal words mean equal keys.
struct KeyWords: Sendable, Equatable {
    static let inlineLength = 16

    private var length = 0
    private var head: UInt64 = 0
    private var tail: UInt64 = 0
    private var hash: UInt64 = 0

    init() {}

    init(_ key: UnsafeBufferPointer<UInt8>) {
        length = key.count
        guard let base = key.baseAddress, length > 0 else { return }
        let raw = UnsafeRawPointer(base)
        if length >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 {
            head = UInt64(raw.loadUnaligned(as: UInt32.self))
            tail = UInt64(raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
        } else {
            head = UInt64(key[0]) | UInt64(key[length / 2]) << 8 | UInt64(key[length - 1]) << 16
        }
        var mixed = Self.mix(head ^ UInt64(length), tail)
        var offset = 8
        while offset + 8 < length {  // the middle of a long key, 8 bytes at a time
            mixed = Self.mix(mixed, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        hash = mixed
    }

    /// Where the key starts probing under `parent`, before masking to the table size.
    @inline(__always)
    func slot(parent: Int32) -> Int {
        Int(truncatingIfNeeded: Self.mix(hash, UInt64(UInt32(bitPattern: parent))))
    }

    /// A multiply-and-fold mix: every input bit reaches the low bits that pick the slot.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = (a ^ 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: b ^ 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }
}
