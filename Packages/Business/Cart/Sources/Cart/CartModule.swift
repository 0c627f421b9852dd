public import Router
import CartInterface
import Foundation
import Models
import OrderInterface
import ProductInterface
import ScreenKit
import Synchronization
public import Storage

/// The Cart component: provides ``CartService``, owns the `shop://cart...` routes, and empties
/// the cart when an order is placed. Going to the background with a full cart saves a reminder that the
/// next launch shows on the home screen (``CartReminder``).
public struct CartModule: AppModule {
    public let name = "cart"
    public let dependencies = ["product"]
    public let events: Set<LifecycleEvent.Kind> = [.launch, .background, "user.signed-out"]
    private let storage: Storage?
    private let registered = RegisteredCart()

    /// A module keeping the cart in `storage`, by default in the App's `Storage` service.
    public init(storage: Storage? = nil) {
        self.storage = storage
    }

    public func register(in context: ModuleContext) throws {
        let services = context.services
        let storage = try self.storage ?? services.resolve(Storage.self)
        let store = CartStore(storage: storage, catalog: { try services.resolve((any ProductCatalog).self) }, events: context.events)
        let reminders = CartReminders(storage: storage)
        registered.set(store, reminders)
        try services.register((any CartService).self, owner: name, instance: store)
        context.events.subscribe(store, to: OrderPlaced.self) { store, _ in try? store.clear() }
        // Someone is using the cart: the reminder of an earlier visit has done its work.
        context.events.subscribe(store, to: CartChanged.self) { _, _ in try? reminders.forget() }

        let router = context.router
        try router.register(CartRoute.Show.self, owner: name) { _, _ in try await CartScreens.show(store) }
        try router.register(CartRoute.Add.self, owner: name) { route, _ in
            do {
                let line = try await store.add(productID: route.productID, quantity: route.quantity ?? 1)
                return try await CartScreens.show(store, notice: "Added \(route.quantity ?? 1) × \(line.name).")
            } catch let error as CartError {
                return try await CartScreens.show(store, notice: error.description)
            }
        }
        try router.register(CartRoute.Remove.self, owner: name) { route, _ in
            let name = try store.lines().first { $0.productID == route.productID }?.name
            let removed = try store.remove(productID: route.productID)
            return try await CartScreens.show(store, notice: removed ? "Removed \(name ?? "product \(route.productID)")." : "That product was not in the cart.")
        }
        try router.register(CartRoute.Clear.self, owner: name) { _, _ in
            try store.clear()
            return try await CartScreens.show(store)
        }
    }
}

extension CartModule {
    public func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
        guard let (store, reminders) = registered.value else { return }
        switch event {
        case .background:
            try reminders.save(try store.lines())
        case .launch:
            guard let reminder = try reminders.saved(), try !store.lines().isEmpty else { return }
            context.events.publish(CartReminders.promotion(reminder, url: try CartRoute.Show().url()))
        case .custom("user.signed-out", _):
            try reminders.forget()
        default:
            break
        }
    }
}

/// The cart the module registered, for the events it handles later.
final class RegisteredCart: Sendable {
    private let storage = Mutex<(CartStore, CartReminders)?>(nil)
    var value: (CartStore, CartReminders)? { storage.withLock { $0 } }
    func set(_ store: CartStore, _ reminders: CartReminders) { storage.withLock { $0 = (store, reminders) } }
}

enum CartScreens {
    static func show(_ cart: any CartService, notice: String? = nil) async throws -> Screen {
        var screen = Screen(title: "Cart", refreshURL: try CartRoute.Show().url())
        if let notice { screen.text(notice) }
        let lines = try await cart.lines()
        guard !lines.isEmpty else {
            screen.text("Your cart is empty.")
            screen.link("Browse products", try ProductRoute.List().url())
            return screen
        }
        for line in lines {
            screen.text("\(line.quantity) × \(line.name) @ \(line.unitPrice) = \(line.total)")
        }
        screen.text("Total: \(lines.map(\.total).totalsDescription)")
        screen.divider()
        screen.link("Check out", try OrderRoute.Checkout().url())
        for line in lines {
            screen.link("Remove \(line.name)", try CartRoute.Remove(productID: line.productID).url())
        }
        screen.link("Empty the cart", try CartRoute.Clear().url())
        screen.link("Continue shopping", try ProductRoute.List().url())
        return screen
    }
}
