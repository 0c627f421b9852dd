import Routing
import Testing

@Test func aPatternHasOneOwner() throws {
    var registry = Registry()
    try registry.register("lib://a", owner: "x")
    #expect(throws: RegistryError(pattern: "lib://a", owner: "x")) { try registry.register("lib://a", owner: "y") }
}
