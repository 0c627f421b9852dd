import Foundation
import Testing

@testable import Router

/// The direct reading of a route's parameters gives what the JSON round trip gives, for every shape it takes, and
/// leaves every other shape to it.
@Suite struct FlatParameterEncoderTests {
    enum Sort: String, Codable { case new, top }
    enum Level: Int, Codable { case low = 1, high = 2 }

    struct Scalars: Codable {
        var text: String
        var number: Int
        var flag: Bool
        var token: UUID
        var sort: Sort
        var level: Level
        var maybeText: String?
        var maybeNumber: Int?
        var maybeSort: Sort?
    }

    struct Numbers: Codable {
        var double: Double
        var float: Float
        var small: Int8
        var large: UInt64
    }

    struct Nested: Codable {
        struct Inner: Codable { var value: String }
        var inner: Inner
    }

    struct Listed: Codable { var values: [String] }

    struct ExplicitNil: Encodable {
        var name: String?
        enum CodingKeys: String, CodingKey { case name }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
        }
    }

    /// Writes nothing at all: JSON refuses a top-level value without content.
    struct WritesNothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Writes, as its one value, the path its encoder says it is at.
    struct CodingPathEcho: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "."))
        }
    }

    struct EchoesItsPath: Encodable { var section = CodingPathEcho() }

    struct Empty: Codable {}

    private func same(_ value: some Encodable) throws {
        let direct = Result { try FlatParameterEncoder().encode(value) }
        let json = Result { try FlatParameterEncoder().encodeThroughJSON(value) }
        switch (direct, json) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(value): \(a) against JSON's \(b)")
        case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
        default: Issue.record("\(value): \(direct) against JSON's \(json)")
        }
    }

    @Test(arguments: 0..<200)
    func scalarsReadDirectlyAreWhatJSONGives(seed: Int) throws {
        let number = seed * 7_919 - 700_000 + (seed % 3 == 0 ? Int.max / 2 : 0) * (seed % 2 == 0 ? 1 : -1)
        let texts = ["", "a b", "true", "10", "-3", "1e3", "caf\u{E9}", "x/y?z#w", "0.5", "null"]
        let scalars = Scalars(
            text: texts[seed % texts.count], number: number, flag: seed % 2 == 0, token: UUID(), sort: seed % 2 == 0 ? .new : .top,
            level: seed % 3 == 0 ? .low : .high, maybeText: seed % 4 == 0 ? nil : texts[(seed + 3) % texts.count],
            maybeNumber: seed % 5 == 0 ? nil : -number, maybeSort: seed % 6 == 0 ? nil : .top)
        #expect(FlatParameterEncoder().directly(scalars) != nil, "read directly")
        try same(scalars)
    }

    @Test func otherShapesGoThroughJSONAsBefore() throws {
        #expect(FlatParameterEncoder().directly(Numbers(double: 1, float: 1, small: 1, large: 1)) == nil)
        #expect(FlatParameterEncoder().directly(Nested(inner: .init(value: "x"))) == nil)
        #expect(FlatParameterEncoder().directly(Listed(values: [])) == nil)
        try same(Numbers(double: 10, float: 0.1, small: -3, large: UInt64.max))
        try same(Numbers(double: 10.5, float: 3, small: 0, large: 7))
        try same(Nested(inner: .init(value: "x")))
        try same(Listed(values: ["a"]))
        try same(ExplicitNil(name: nil))
        try same(ExplicitNil(name: "n"))
    }

    @Test func aRouteThatWritesNothingFailsAsThroughJSON() throws {
        #expect(FlatParameterEncoder().directly(WritesNothing()) == nil)
        #expect(throws: (any Error).self) { try FlatParameterEncoder().encode(WritesNothing()) }
        try same(WritesNothing())
        #expect(FlatParameterEncoder().directly(Empty()) == [:])
        try same(Empty())
    }

    @Test func aPropertysEncoderIsAtItsKeyAsJSONsIs() throws {
        #expect(try FlatParameterEncoder().encode(EchoesItsPath()) == ["section": "section"])
        try same(EchoesItsPath())
    }
}
