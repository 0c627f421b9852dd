public import Router
import CartInterface
import Foundation
import Models
import OrderInterface
import ProductInterface
import ScreenKit
public import Storage

/// The Cart component: provides ``CartService``, owns the `shop://cart...` routes, and empties
/// the cart when an order is placed.
public struct CartModule: AppModule {
    public let name = "cart"
    public let dependencies = ["product"]
    private let storage: Storage?

    /// A module keeping the cart in `storage`, by default in the App's `Storage` service.
    public init(storage: Storage? = nil) {
        self.storage = storage
    }

    public func register(in context: ModuleContext) throws {
        let services = context.services
        let storage = try self.storage ?? services.resolve(Storage.self)
        let store = CartStore(storage: storage, catalog: { try services.resolve((any ProductCatalog).self) }, events: context.events)
        try services.register((any CartService).self, owner: name, instance: store)
        context.events.subscribe(store, to: OrderPlaced.self) { store, _ in try? store.clear() }

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
