/// An event components publish to whoever listens, without knowing them.
public protocol AppEvent: Sendable {}

/// Publish/subscribe of typed events; subscribers are held weakly, so a listener that goes away stops listening.
public final class EventBus: Sendable {
    private struct Subscription: Sendable {
        let token: SubscriptionToken
        let subscriber: WeakReference
        let deliver: @Sendable (AnyObject, any AppEvent) -> Void
    }

    private let subscriptions: Locked<[ObjectIdentifier: [Subscription]]>
    /// The bounds of the runtime plugin this bus was narrowed for; nil: the bus itself.
    private let scope: PluginScope?

    /// Creates a bus with no subscribers.
    public init() {
        subscriptions = Locked([:])
        scope = nil
    }

    private init(narrowing base: EventBus, to scope: PluginScope) {
        subscriptions = base.subscriptions
        self.scope = scope
    }

    /// This bus as a runtime plugin gets it: what the plugin publishes while it loads waits for its load
    /// to be accepted, and its handlers run inside its call marks (``PluginScope``).
    public func narrowed(to scope: PluginScope) -> EventBus {
        EventBus(narrowing: self, to: scope)
    }

    /// Delivers every `E` published from now on to `handler`, as long as `subscriber` lives.
    @discardableResult
    public func subscribe<E: AppEvent, Subscriber: AnyObject & Sendable>(
        _ subscriber: Subscriber, to event: E.Type, handler: @escaping @Sendable (Subscriber, E) -> Void
    ) -> SubscriptionToken {
        let token = SubscriptionToken()
        let calls = scope?.calls
        let subscription = Subscription(token: token, subscriber: WeakReference(subscriber)) { object, event in
            guard let object = object as? Subscriber, let event = event as? E else { return }
            if let calls { calls.run { handler(object, event) } } else { handler(object, event) }
        }
        subscriptions.withLock { $0[ObjectIdentifier(event), default: []].append(subscription) }
        if let scope, !scope.record(token) { unsubscribe(token) }
        return token
    }

    /// Stops the subscription `token` was returned for.
    public func unsubscribe(_ token: SubscriptionToken) {
        subscriptions.withLock { table in
            for key in table.keys { table[key]?.removeAll { $0.token == token } }
        }
    }

    /// Delivers `event` synchronously, in subscription order, to every live subscriber of its type.
    public func publish<E: AppEvent>(_ event: E) {
        if let scope, scope.hold({ [self] in deliver(event) }) { return }
        deliver(event)
    }

    private func deliver<E: AppEvent>(_ event: E) {
        let key = ObjectIdentifier(E.self)
        let current = subscriptions.withLock { table in
            table[key]?.removeAll { $0.subscriber.object == nil }
            return table[key] ?? []
        }
        // Deliver outside the lock so a handler may publish or subscribe in turn.
        for subscription in current {
            guard let object = subscription.subscriber.object else { continue }
            subscription.deliver(object, event)
        }
    }

    /// How many live subscribers `event` has.
    public func subscriberCount<E: AppEvent>(for event: E.Type) -> Int {
        subscriptions.withLock { $0[ObjectIdentifier(event)]?.filter { $0.subscriber.object != nil }.count ?? 0 }
    }
}

/// Identifies one subscription, to cancel it.
public struct SubscriptionToken: Sendable, Hashable {
    // The token keeps its marker alive, so no other token can reuse its identity.
    private let marker = Marker()
    private final class Marker: Sendable {}

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.marker === rhs.marker }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(marker)) }
}

private final class WeakReference: Sendable {
    weak let object: (AnyObject & Sendable)?
    init(_ object: AnyObject & Sendable) { self.object = object }
}
