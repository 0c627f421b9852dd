import Foundation

/// Turns a typed route into a flat `[String: String]` through its `Encodable` conformance.
///
/// A route of strings, integers, booleans and UUIDs (optional or not, or enums of them) is read directly. Any other
/// shape goes through JSON, which handles every `Encodable`; anything that is not a scalar (a nested struct or an
/// array) is refused with the property's name. The direct reading gives what JSON gives for the shapes it takes, and
/// spares a runtime plugin's first link JSON's type lookups in a newly loaded image (about 0.2 ms of its load). A route
/// of another shape runs its `encode(to:)` twice, the direct attempt stopping at its first other value: as with any
/// encoder, a route's encoding is expected to have no side effects.
struct FlatParameterEncoder {
    func encode(_ value: some Encodable) throws -> [String: String] {
        try directly(value) ?? encodeThroughJSON(value)
    }

    /// The flat parameters of `value` read directly, or nil for a shape only the JSON round trip reads.
    func directly(_ value: some Encodable) -> [String: String]? {
        let direct = DirectEncoder(storage: DirectEncoder.Storage())
        // A route that opened no keyed container wrote no parameters at all: JSON says why that is an error.
        guard (try? value.encode(to: direct)) != nil, direct.storage.openedKeyed, !direct.storage.refused else { return nil }
        return direct.storage.values
    }

    /// The flat parameters of `value` through a JSON round trip: the reference every shape is read by.
    func encodeThroughJSON(_ value: some Encodable) throws -> [String: String] {
        let json = try JSONEncoder().encode(value)
        let scalars: [String: FlatScalar]
        do {
            scalars = try JSONDecoder().decode([String: FlatScalar].self, from: json)
        } catch {
            throw RouterError.invalidPattern("\(type(of: value))", reason: "a route's properties must be strings, numbers, booleans or UUIDs")
        }
        return scalars.compactMapValues(\.text)
    }

    private enum FlatScalar: Decodable {
        case text(String?)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .text(nil)
            } else if let bool = try? container.decode(Bool.self) {
                self = .text(String(bool))
            } else if let int = try? container.decode(Int.self) {
                self = .text(String(int))
            } else if let double = try? container.decode(Double.self) {
                self = .text(String(double))
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        var text: String? {
            switch self {
            case .text(let text): text
            }
        }
    }
}

/// Reads a route whose properties are strings, `Int`s, booleans, or values that encode as one of them (a UUID, an enum
/// with such raw values), each optional or not. Any other shape marks the storage refused: JSON reads it instead.
private struct DirectEncoder: Encoder {
    final class Storage {
        var values: [String: String] = [:]
        var openedKeyed = false
        var refused = false
    }

    let storage: Storage
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.openedKeyed = true
        return KeyedEncodingContainer(Keyed(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.refused = true
        return Refused(storage: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        storage.refused = true
        return Refused(storage: storage)
    }

    /// Why a shape is not read directly.
    struct NotDirect: Error {}

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { storage.values[key.stringValue] = nil }
        mutating func encode(_ value: Bool, forKey key: Key) throws { storage.values[key.stringValue] = String(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { storage.values[key.stringValue] = value }
        mutating func encode(_ value: Int, forKey key: Key) throws { storage.values[key.stringValue] = String(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: Float, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try refuse() }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try refuse() }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let scalar = ScalarCapture(storage: storage, codingPath: [key])
            try value.encode(to: scalar)
            guard !storage.refused, case .some(let text) = scalar.captured.value else { return try refuse() }
            storage.values[key.stringValue] = text
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            storage.refused = true
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: storage))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            storage.refused = true
            return Refused(storage: storage)
        }

        mutating func superEncoder() -> any Encoder {
            storage.refused = true
            return DirectEncoder(storage: storage)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            storage.refused = true
            return DirectEncoder(storage: storage)
        }

        private func refuse() throws {
            storage.refused = true
            throw NotDirect()
        }
    }

    /// The one value a property's own encoding writes: its text, or nil for nil (nil until it writes one).
    private final class Captured {
        var value: String??
    }

    /// A property's own encoder, at the property's key as JSON's is.
    private struct ScalarCapture: Encoder, SingleValueEncodingContainer {
        let storage: Storage
        let codingPath: [any CodingKey]
        let captured = Captured()
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            storage.refused = true
            return KeyedEncodingContainer(Keyed(storage: storage))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            storage.refused = true
            return Refused(storage: storage)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        mutating func encodeNil() throws { try write(nil) }
        mutating func encode(_ value: Bool) throws { try write(String(value)) }
        mutating func encode(_ value: String) throws { try write(value) }
        mutating func encode(_ value: Int) throws { try write(String(value)) }
        mutating func encode(_ value: Double) throws { try refuse() }
        mutating func encode(_ value: Float) throws { try refuse() }
        mutating func encode(_ value: Int8) throws { try refuse() }
        mutating func encode(_ value: Int16) throws { try refuse() }
        mutating func encode(_ value: Int32) throws { try refuse() }
        mutating func encode(_ value: Int64) throws { try refuse() }
        mutating func encode(_ value: UInt) throws { try refuse() }
        mutating func encode(_ value: UInt8) throws { try refuse() }
        mutating func encode(_ value: UInt16) throws { try refuse() }
        mutating func encode(_ value: UInt32) throws { try refuse() }
        mutating func encode(_ value: UInt64) throws { try refuse() }
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }

        /// Keeps `text` as the property's one value; a second value is a shape JSON must read.
        private func write(_ text: String?) throws {
            guard captured.value == nil else { return try refuse() }
            captured.value = .some(text)
        }

        private func refuse() throws {
            storage.refused = true
            throw NotDirect()
        }
    }

    /// A container of a shape the direct reading does not take: every write refuses.
    private struct Refused: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let storage: Storage
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        private func refuse() throws -> Never {
            storage.refused = true
            throw NotDirect()
        }

        mutating func encodeNil() throws { try refuse() }
        mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(storage: storage))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { DirectEncoder(storage: storage) }
    }
}

/// Decodes a typed route from a flat `[String: String]`: each property reads its string and converts it.
struct FlatParameterDecoder: Decoder {
    let values: [String: String]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed(values: values, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "a route is a set of named parameters, not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "a route is a set of named parameters, not one value"))
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: String]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let text = values[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return try T(from: ScalarDecoder(text: text, codingPath: codingPath + [key]))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath + [key], debugDescription: "nested values are not route parameters"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath + [key], debugDescription: "lists are not route parameters"))
        }

        func superDecoder() throws -> any Decoder { FlatParameterDecoder(values: values, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { FlatParameterDecoder(values: values, codingPath: codingPath + [key]) }
    }
}

/// Decodes one parameter's string as whatever scalar the property wants.
private struct ScalarDecoder: Decoder, SingleValueDecodingContainer {
    let text: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "nested values are not route parameters"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "lists are not route parameters"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Bool.Type) throws -> Bool { try parse(type) }
    func decode(_ type: Double.Type) throws -> Double { try parse(type) }
    func decode(_ type: Float.Type) throws -> Float { try parse(type) }
    func decode(_ type: Int.Type) throws -> Int { try parse(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try parse(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try parse(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try parse(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try parse(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try parse(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try parse(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try parse(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try parse(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try parse(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private func parse<T: LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard let value = T(text) else {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "'\(text)' is not a \(type)"))
        }
        return value
    }
}
