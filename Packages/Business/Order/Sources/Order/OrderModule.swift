public import Router
import CartInterface
public import Foundation
import OrderInterface
import ProductInterface
import ScreenKit
public import Storage
import UserInterface

/// The Order component: provides ``OrderHistory`` and owns the `shop://order/...` routes. What it
/// shows depends on who is signed in, which it learns from ``AccountService``.
public struct OrderModule: AppModule {
    public let name = "order"
    public let dependencies = ["user", "cart"]
    private let storage: Storage?
    private let clock: @Sendable () -> Date

    /// A module keeping orders in `storage`, by default in the App's `Storage` service.
    public init(storage: Storage? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        self.storage = storage
        self.clock = clock
    }

    public func register(in context: ModuleContext) throws {
        let services = context.services
        let book = OrderBook(storage: try storage ?? services.resolve(Storage.self), clock: clock)
        let events = context.events
        try services.register((any OrderHistory).self, owner: name, instance: book)
        let currentUser: @Sendable () async throws -> UserAccount? = { try await services.resolve((any AccountService).self).currentUser() }
        // User's interceptor signs people in first; the handlers still cope alone (in the demo, without User).
        let options = RouteOptions(labels: [UserRouteLabel.requiresLogin])

        try context.router.register(OrderRoute.List.self, owner: name, options: options) { route, _ in
            guard let user = try await currentUser() else { return try OrderScreens.signInFirst(to: route, "see your orders") }
            return try OrderScreens.list(try book.orders(of: user.id), for: user)
        }
        try context.router.register(OrderRoute.Detail.self, owner: name, options: options) { route, _ in
            guard let user = try await currentUser() else { return try OrderScreens.signInFirst(to: route, "see this order") }
            return try OrderScreens.detail(try book.order(id: route.id, of: user.id), id: route.id)
        }
        // Checkout only shows the order; placing it is a step of its own, so an order is never placed
        // unseen (signing in on the way resumes the review, not the purchase).
        try context.router.register(OrderRoute.Checkout.self, owner: name, options: options) { route, _ in
            guard let user = try await currentUser() else { return try OrderScreens.signInFirst(to: route, "check out") }
            let lines = try await services.resolve((any CartService).self).lines()
            guard !lines.isEmpty else { return try OrderScreens.emptyCart() }
            return try OrderScreens.review(lines, for: user)
        }
        try context.router.register(OrderRoute.Place.self, owner: name, options: options) { route, _ in
            guard let user = try await currentUser() else { return try OrderScreens.signInFirst(to: route, "place your order") }
            let lines = try await services.resolve((any CartService).self).lines()
            guard !lines.isEmpty else { return try OrderScreens.emptyCart() }
            let order = try book.place(lines, for: user.id)
            events.publish(OrderPlaced(order: order))
            return try OrderScreens.detail(order, id: order.id, notice: "Thank you, \(user.displayName)! Order \(order.id) is placed.")
        }
    }
}
