import ComponentKit
import Testing

/// What an interface may hold and what is behaviour, on sources written as a team would write them.
@Suite struct InterfaceScannerTests {
    private func found(_ source: String) -> [String] {
        InterfaceScanner.scan(Array(source.utf8)).map { "\($0.line):\($0.column) \($0.what)" }
    }

    @Test func declarationsAreAllowed() {
        let source = """
            public import Router

            /// A line of the cart.
            public struct CartLine: Sendable, Hashable, Codable {
                public var productID: Int
                public var quantity: Int = 1
                public let note: String?
                public static let maximum = 99

                public init(productID: Int, quantity: Int, note: String? = nil) {
                    self.productID = productID
                    self.quantity = quantity
                    self.note = nil
                }

                /// The units, as one expression of the stored data.
                public var units: Int { quantity * 1 }
                public var isEmpty: Bool { return quantity == 0 }
            }

            public protocol CartService: Sendable {
                func lines() async throws -> [CartLine]
                var count: Int { get }
                subscript(index: Int) -> CartLine { get }
                init()
            }

            public enum CartRoute {
                public struct Show: Route, Equatable {
                    public static let pattern: RoutePattern = "myapp://cart"
                    public init() {}
                }
                case first, second(Int)
            }

            public typealias Lines = [CartLine]
            public let cartLimit = 10
            extension CartLine: CustomStringConvertible {
                public var description: String { "\\(quantity) × \\(productID)" }
            }
            #if os(Linux)
            public struct LinuxOnly {}
            #endif
            """
        #expect(found(source).isEmpty, "\(found(source))")
    }

    @Test func behaviourIsFoundAtItsPlace() {
        let source = """
            public final class CartCache {
                private var lines: [Int] = []
                public func add(_ line: Int) { lines.append(line) }
            }
            public struct Price {
                public var cents: Int
                public init(euros: Double) { self.cents = Int(euros * 100) }
                public func doubled() -> Price { Price(cents: cents * 2) }
                public var label: String {
                    if cents > 100 { return "dear" }
                    return "cheap"
                }
                public var cached: Int { get { cents } set { cents = newValue } }
                public static var shared = Price(cents: 0)
                public lazy var heavy = cents
            }
            public var registry: [String] = []
            public func helper() -> Int { 1 }
            extension CartService {
                public func clearTwice() async throws { try await clear(); try await clear() }
            }
            public actor Counter {}
            """
        #expect(
            found(source) == [
                "1:14 class CartCache", "7:12 an initialiser that computes", "8:12 method doubled()", "9:12 computed property label",
                "13:12 computed property cached", "14:19 static variable shared", "15:17 lazy property heavy", "17:8 global variable registry",
                "18:8 function helper()", "20:12 method clearTwice()", "22:8 actor Counter",
            ])
    }
}
