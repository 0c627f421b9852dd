/// Every literal edge of the trie in one open-addressing hash table keyed by (parent node, bytes).
///
/// One table instead of a dictionary per node: a lookup hashes the segment's bytes where they lie
/// in the URL, so matching a literal allocates nothing and costs the same whether a node has one
/// child or ten thousand. A key's first and last 8 bytes live in its slot, so keys of up to 16
/// bytes (nearly all) are compared without reading the shared arena that holds the longer ones.
struct LiteralEdges: Sendable {
    /// Where an edge leads: the child node, and the route that ends there (or -1), copied from the
    /// child so that matching a URL's last segment reads no node.
    struct Edge {
        let child: Int32
        let terminal: Int32
    }

    /// 32 bytes: two to a cache line.
    fileprivate struct Slot: Sendable {
        /// The parent node, or -1 for an empty slot.
        var parent: Int32 = -1
        var child: Int32 = 0
        var terminal: Int32 = -1
        var length: Int32 = 0
        var head: UInt64 = 0
        /// The key's last 8 bytes; for a key longer than 16 bytes, where it starts in `longKeys`.
        var tail: UInt64 = 0

        var isLong: Bool { length > KeyWords.inlineLength }

        func holds(_ key: KeyWords) -> Bool {
            length == key.length && head == key.head && (isLong || tail == key.tail)
        }
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

    /// The table as plain pointers, valid inside ``withView(_:)``.
    struct View {
        fileprivate let slots: UnsafeBufferPointer<Slot>
        fileprivate let longKeys: UnsafeBufferPointer<UInt8>

        /// The edge from `parent` along `key`, or nil.
        func edge(from parent: Int32, key: UnsafeBufferPointer<UInt8>) -> Edge? {
            index(of: parent, key, KeyWords(key)).map { Edge(child: slots[$0].child, terminal: slots[$0].terminal) }
        }

        /// The slot of the edge from `parent` along `key`, or nil.
        func index(of parent: Int32, _ key: UnsafeBufferPointer<UInt8>, _ words: KeyWords) -> Int? {
            let index = indexOrVacancy(of: parent, key, words)
            return slots[index].parent < 0 ? nil : index
        }

        /// The slot of the edge from `parent` along `key`, or the empty slot where it would go.
        func indexOrVacancy(of parent: Int32, _ key: UnsafeBufferPointer<UInt8>, _ words: KeyWords) -> Int {
            let mask = slots.count - 1
            var index = words.slot(parent: parent) & mask
            while true {
                let slot = slots[index]
                if slot.parent < 0 { return index }
                if slot.parent == parent, slot.holds(words), !slot.isLong || isLongKey(slot, key) { return index }
                index = (index &+ 1) & mask
            }
        }

        private func isLongKey(_ slot: Slot, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = Int(slot.tail)
            return longKeys[start..<start + key.count].elementsEqual(key)
        }
    }

    /// The slot of the edge from `parent` along `key`, added (leading to `newChild`) if there is none yet.
    mutating func slot(from parent: Int32, key: UnsafeBufferPointer<UInt8>, orAdd newChild: Int32) -> Int {
        // Growing first (possibly for a key already present) lets one probe find the key or its place.
        if (count + 1) * 4 > slots.count * 3 { grow(to: slots.count * 2) }
        let words = KeyWords(key)
        let index = withView { $0.indexOrVacancy(of: parent, key, words) }
        guard slots[index].parent < 0 else { return index }
        var slot = Slot(parent: parent, child: newChild, length: words.length, head: words.head, tail: words.tail)
        if slot.isLong {
            slot.tail = UInt64(longKeys.count)
            longKeys.append(contentsOf: key)
        }
        slots[index] = slot
        count += 1
        return index
    }

    /// Grows the table once to hold `more` more edges without growing again.
    mutating func reserveCapacity(forAdding more: Int) {
        var size = slots.count
        while (count + more) * 4 > size * 3 { size *= 2 }
        if size > slots.count { grow(to: size) }
    }

    /// The child the edge in `slot` leads to.
    func child(inSlot slot: Int) -> Int32 {
        slots[slot].child
    }

    /// Copies the route that ends at the child of the edge in `slot` into the edge.
    mutating func setTerminal(_ terminal: Int32, inSlot slot: Int) {
        slots[slot].terminal = terminal
    }

    private mutating func place(_ slot: Slot, _ key: KeyWords) {
        let mask = slots.count - 1
        var index = key.slot(parent: slot.parent) & mask
        while slots[index].parent >= 0 { index = (index &+ 1) & mask }
        slots[index] = slot
    }

    private mutating func grow(to size: Int) {
        let old = slots
        slots = [Slot](repeating: Slot(), count: size)
        for slot in old where slot.parent >= 0 {
            let key =
                slot.isLong
                ? longKeys.withUnsafeBufferPointer { KeyWords(UnsafeBufferPointer(rebasing: $0[Int(slot.tail)...].prefix(Int(slot.length)))) }
                : KeyWords(length: slot.length, head: slot.head, tail: slot.tail)
            place(slot, key)
        }
    }
}

/// A key's length, its first and last 8 bytes (overlapping when shorter than 16), and a hash of all of it.
///
/// For keys of up to 16 bytes the words are the whole key, so equal words mean equal keys.
struct KeyWords: Sendable {
    static let inlineLength: Int32 = 16

    let length: Int32
    let head: UInt64
    let tail: UInt64
    private let hash: UInt64

    init(_ key: UnsafeBufferPointer<UInt8>) {
        length = Int32(key.count)
        guard let base = key.baseAddress, !key.isEmpty else {
            (head, tail, hash) = (0, 0, 0)
            return
        }
        let raw = UnsafeRawPointer(base)
        if key.count >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: key.count - 8, as: UInt64.self)
        } else if key.count >= 4 {
            head = UInt64(raw.loadUnaligned(as: UInt32.self))
            tail = UInt64(raw.loadUnaligned(fromByteOffset: key.count - 4, as: UInt32.self))
        } else {
            head = UInt64(key[0]) | UInt64(key[key.count / 2]) << 8 | UInt64(key[key.count - 1]) << 16
            tail = 0
        }
        var mixed = Self.mix(head ^ UInt64(length), tail)
        var offset = 8
        while offset + 8 < key.count { // the middle of a long key, 8 bytes at a time
            mixed = Self.mix(mixed, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        hash = mixed
    }

    /// The words of a key of at most 16 bytes, as a slot holds them.
    init(length: Int32, head: UInt64, tail: UInt64) {
        (self.length, self.head, self.tail) = (length, head, tail)
        hash = Self.mix(head ^ UInt64(length), tail)
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
