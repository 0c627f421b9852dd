import Foundation

/// Turns a typed route into a flat `[String: String]` through its `Encodable` conformance.
///
/// Goes through JSON so every `Encodable` shape is handled; anything that is not a scalar
/// (a nested struct or an array) is refused with the property's name.
struct FlatParameterEncoder {
    func encode(_ value: some Encodable) throws -> [String: String] {
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
