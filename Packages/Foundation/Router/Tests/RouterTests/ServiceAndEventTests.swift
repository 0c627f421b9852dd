import Router
import Synchronization
import Testing

private protocol Greeter: Sendable { func greet() -> String }
private protocol Clock: Sendable { var now: Int { get } }
private struct English: Greeter { func greet() -> String { "hello" } }
private struct FixedClock: Clock { let now: Int }
private struct TimedGreeter: Greeter {
    let clock: any Clock
    func greet() -> String { "hello at \(clock.now)" }
}

private struct PriceChanged: AppEvent { let cents: Int }
private struct Other: AppEvent {}

private final class Listener: Sendable {
    let seen = Recorder()
}

final class Recorder: Sendable {
    private let values = Mutex<[String]>([])
    func add(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

@Suite struct ServiceRegistryTests {
    @Test func resolvesByProtocolWithDependencies() throws {
        let services = ServiceRegistry()
        try services.register((any Clock).self, owner: "core", instance: FixedClock(now: 9))
        try services.register((any Greeter).self, owner: "greeting") { resolver in
            TimedGreeter(clock: try resolver.resolve((any Clock).self))
        }
        #expect(try services.resolve((any Greeter).self).greet() == "hello at 9")
        #expect(services.registrations.map(\.owner) == ["core", "greeting"])
    }

    @Test func duplicateRegistrationNamesBothOwners() throws {
        let services = ServiceRegistry()
        try services.register((any Greeter).self, owner: "user") { _ in English() }
        #expect(throws: RouterError.duplicateService(service: "Greeter", owner: "order", existingOwner: "user")) {
            try services.register((any Greeter).self, owner: "order") { _ in English() }
        }
    }

    @Test func unknownServiceAndCyclesAreErrors() throws {
        let services = ServiceRegistry()
        #expect(throws: RouterError.unknownService("Greeter")) { try services.resolve((any Greeter).self) }
        try services.register((any Greeter).self, owner: "a") { resolver in
            TimedGreeter(clock: try resolver.resolve((any Clock).self))
        }
        try services.register((any Clock).self, owner: "b") { resolver in
            _ = try resolver.resolve((any Greeter).self)
            return FixedClock(now: 0)
        }
        #expect(throws: RouterError.serviceCycle(["Greeter", "Clock", "Greeter"])) {
            try services.resolve((any Greeter).self)
        }
    }

    @Test func singletonsAreSharedAndTransientsAreNew() throws {
        final class Counter: Sendable {}
        let services = ServiceRegistry()
        try services.register(Counter.self, owner: "t") { _ in Counter() }
        #expect(try services.resolve(Counter.self) === services.resolve(Counter.self))
        struct Fresh: Sendable { let object = Counter() }
        try services.register(Fresh.self, owner: "t", scope: .transient) { _ in Fresh() }
        #expect(try services.resolve(Fresh.self).object !== services.resolve(Fresh.self).object)
    }
}

@Suite struct EventBusTests {
    @Test func deliversTypedEventsToLiveSubscribersOnly() {
        let bus = EventBus()
        var listener: Listener? = Listener()
        let recorder = listener?.seen ?? Recorder()
        if let listener { bus.subscribe(listener, to: PriceChanged.self) { listener, event in listener.seen.add("price \(event.cents)") } }
        bus.publish(PriceChanged(cents: 5))
        bus.publish(Other())
        #expect(recorder.all == ["price 5"])
        #expect(bus.subscriberCount(for: PriceChanged.self) == 1)
        listener = nil
        bus.publish(PriceChanged(cents: 6))
        #expect(recorder.all == ["price 5"])
        #expect(bus.subscriberCount(for: PriceChanged.self) == 0)
    }

    @Test func unsubscribeStopsDelivery() {
        let bus = EventBus()
        let listener = Listener()
        let token = bus.subscribe(listener, to: PriceChanged.self) { listener, _ in listener.seen.add("x") }
        bus.unsubscribe(token)
        bus.publish(PriceChanged(cents: 1))
        #expect(listener.seen.all.isEmpty)
    }
}
